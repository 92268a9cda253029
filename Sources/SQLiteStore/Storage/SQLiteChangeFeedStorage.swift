import FoundationEssentials
import MoviesData
import MoviesDomain

/// `ChangeFeedStorage` in the cache database: the `change_feed` row and the `responses` and
/// search index tables, each call one transaction.
///
/// A movie's cached details are the rows keyed `movie/<id>?language=…`; the id is read from the
/// key. A search page lists a changed movie when the local search index has it as a source.
public final class SQLiteChangeFeedStorage: ChangeFeedStorage {
    private let store: SQLiteStore

    /// Creates the storage over `store`'s cache database (the memory the store keeps in step
    /// learns every expiry a run sets: `SQLiteStore.keepInStep`).
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// The movie id of a `movie/<id>?…` key, in SQL.
    private static let movieID = "CAST(substr(key, 7, instr(key, '?') - 7) AS INTEGER)"
    private static let isMovie = "key GLOB 'movie/[0-9]*[?]*'"

    public func changeFeedStatus() async throws -> ChangeFeedStatus {
        try await store.read { connection in try Self.status(in: connection) }
    }

    public func applyChanges(_ changes: ChangeFeedChanges, status: ChangeFeedStatus) async throws -> ChangeFeedApplied {
        try await store.write { connection -> ChangeFeedApplied in
            try connection.execute("CREATE TEMP TABLE IF NOT EXISTS feed_changed (id INTEGER PRIMARY KEY)")
            try connection.execute("DELETE FROM temp.feed_changed")
            for id in changes.changedIDs {
                _ = try connection.run("INSERT OR IGNORE INTO temp.feed_changed (id) VALUES (?)", [.integer(Int64(id))])
            }
            let now = SQLiteValue.date(changes.now)
            let pinnedChanged: [Int]
            let changedCached: Int
            var validated = 0
            if let since = changes.coveredSince {
                changedCached = Int(try connection.integer("""
                    SELECT count(DISTINCT \(Self.movieID)) FROM responses
                    WHERE \(Self.isMovie) AND \(Self.movieID) IN (SELECT id FROM temp.feed_changed)
                    """) ?? 0)
                pinnedChanged = try Self.ids(connection.prepare("""
                    SELECT DISTINCT \(Self.movieID) FROM responses
                    WHERE \(Self.isMovie) AND pinned != 0 AND http_status = 200 AND \(Self.movieID) IN (SELECT id FROM temp.feed_changed)
                    ORDER BY 1
                    """))
                try connection.run("""
                    UPDATE responses SET expires_at = min(expires_at, ?1)
                    WHERE \(Self.isMovie) AND pinned = 0 AND \(Self.movieID) IN (SELECT id FROM temp.feed_changed)
                    """, [now])
                validated = try connection.run("""
                    UPDATE responses SET expires_at = max(expires_at, ?1), validated_at = ?2
                    WHERE \(Self.isMovie) AND http_status = 200 AND \(Self.movieID) NOT IN (SELECT id FROM temp.feed_changed)
                      AND max(fetched_at, coalesce(validated_at, 0)) >= ?3
                    """, [.date(changes.validUntil), now, .date(since)])
            } else {
                // The gap cannot be bridged: every pinned movie is fetched again; nothing is validated.
                pinnedChanged = try Self.ids(connection.prepare("""
                    SELECT DISTINCT \(Self.movieID) FROM responses WHERE \(Self.isMovie) AND pinned != 0 AND http_status = 200 ORDER BY 1
                    """))
                changedCached = pinnedChanged.count
            }
            // A search page listing a changed movie shows its old text: stale too. The pages
            // still queued for the index are indexed first, so every stored page is looked at.
            _ = try MovieTextIndexWriter.indexQueued(upTo: .max, through: .max, in: connection)
            try connection.run("""
                UPDATE responses SET expires_at = min(expires_at, ?1)
                WHERE key IN (
                    SELECT movie_sources.key FROM movie_sources JOIN movie_text ON movie_text.id = movie_sources.movie
                    WHERE movie_text.movie_id IN (SELECT id FROM temp.feed_changed)
                ) AND NOT \(Self.isMovie)
                """, [now])
            try connection.execute("DELETE FROM temp.feed_changed")
            var recorded = status
            recorded.changedCached = changedCached
            recorded.validated = validated
            try Self.save(recorded, in: connection)
            return ChangeFeedApplied(pinnedChanged: pinnedChanged, changedCached: changedCached, validated: validated)
        }
    }

    public func setMoviesFresh(_ ids: [Int], until date: Date?, now: Date) async throws {
        try await store.write { connection in
            for id in ids {
                let prefix = CacheKey.moviePrefix(id: id)
                // Every language of the movie: keys starting with `movie/<id>?` (compared, not GLOBbed: `?` is a wildcard there).
                let match: [SQLiteValue] = [.text(prefix)]
                if let date {
                    try connection.run(
                        "UPDATE responses SET expires_at = max(expires_at, ?2), validated_at = ?3 WHERE substr(key, 1, length(?1)) = ?1 AND http_status = 200",
                        match + [.date(date), .date(now)])
                } else {
                    try connection.run(
                        "UPDATE responses SET expires_at = min(expires_at, ?2) WHERE substr(key, 1, length(?1)) = ?1",
                        match + [.date(now)])
                }
            }
        }
    }

    public func recordChangeFeedRun(_ status: ChangeFeedStatus) async throws {
        try await store.write { connection in try Self.save(status, in: connection) }
    }

    private static func ids(_ statement: SQLiteStatement) throws -> [Int] {
        var ids: [Int] = []
        while try statement.step() { ids.append(Int(statement.int64(at: 0))) }
        return ids
    }

    private static func status(in connection: SQLiteConnection) throws -> ChangeFeedStatus {
        let row = try connection.prepare("""
            SELECT synced_through, last_run_at, last_outcome, last_error, changed_cached, refetched, validated, requests
            FROM change_feed WHERE id = 1
            """)
        guard try row.step() else { return ChangeFeedStatus() }
        return ChangeFeedStatus(
            syncedThrough: row.text(at: 0),
            lastRunAt: row.isNull(at: 1) ? nil : Date(timeIntervalSince1970: row.double(at: 1)),
            lastOutcome: row.text(at: 2).flatMap(ChangeFeedStatus.Outcome.init(rawValue:)),
            lastError: row.text(at: 3),
            changedCached: Int(row.int64(at: 4)), refetched: Int(row.int64(at: 5)),
            validated: Int(row.int64(at: 6)), requests: Int(row.int64(at: 7)))
    }

    private static func save(_ status: ChangeFeedStatus, in connection: SQLiteConnection) throws {
        _ = try connection.run("""
            INSERT INTO change_feed (id, synced_through, last_run_at, last_outcome, last_error, changed_cached, refetched, validated, requests)
            VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET
                synced_through = excluded.synced_through, last_run_at = excluded.last_run_at,
                last_outcome = excluded.last_outcome, last_error = excluded.last_error,
                changed_cached = excluded.changed_cached, refetched = excluded.refetched,
                validated = excluded.validated, requests = excluded.requests
            """, [
                status.syncedThrough.map { .text($0) } ?? .null, status.lastRunAt.map { .date($0) } ?? .null,
                status.lastOutcome.map { .text($0.rawValue) } ?? .null, status.lastError.map { .text($0) } ?? .null,
                .integer(Int64(status.changedCached)), .integer(Int64(status.refetched)),
                .integer(Int64(status.validated)), .integer(Int64(status.requests)),
            ])
    }
}
