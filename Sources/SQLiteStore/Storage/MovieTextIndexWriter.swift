import MoviesData
import SystemSupport

/// Keeps the local search index (`MovieTextIndexSchema`) in step with the responses queued for it,
/// inside the caller's write transaction: each response's movies are upserted (their FTS rows change only
/// when their text does) and become its sources; movies it no longer lists lose it as a source,
/// and leave the index when no other response lists them. A response fetched again with the same
/// movies (the usual refresh) only moves their `fetched_at`: its digest is unchanged.
enum MovieTextIndexWriter {
    /// Indexes the responses of the oldest `limit` queue rows numbered up to `ceiling`, as they
    /// are stored now (one deleted, unreadable or that no longer decodes lists no movie), and
    /// takes those rows off the queue; how many rows it took.
    static func indexQueued(upTo limit: Int, through ceiling: Int64, in connection: SQLiteConnection) throws -> Int {
        let queued = try connection.prepare(
            "SELECT seq, key FROM movie_index_queue WHERE seq <= ? ORDER BY seq LIMIT ?", [.integer(ceiling), .integer(Int64(limit))])
        var (taken, last) = (0, Int64.min)
        var keys: [String] = []
        while try queued.step() {
            taken += 1
            last = queued.int64(at: 0)
            let key = queued.text(at: 1) ?? ""
            if !keys.contains(key) { keys.append(key) }
        }
        for key in keys {
            let movies = try ResponseRow.load(key: key, from: connection, skippingUnknown: true).map(MovieIndexing.entries(of:)) ?? []
            try index(movies, forKey: key, in: connection)
        }
        if taken > 0 { try connection.run("DELETE FROM movie_index_queue WHERE seq <= ?", [.integer(last)]) }
        return taken
    }

    /// Makes `movies` the indexed movies of the response stored under `key` (`[]`: none), their
    /// summaries of `MovieIndexing.summaryVersion`.
    static func index(_ movies: [IndexedMovie], forKey key: String, in connection: SQLiteConnection) throws {
        guard !movies.isEmpty else {
            try connection.run("DELETE FROM movie_index_digests WHERE key = ?", [.text(key)])
            try connection.run("DELETE FROM movie_sources WHERE key = ?", [.text(key)])
            return
        }
        let digest = Int64(bitPattern: Self.digest(of: movies))
        let stored = try connection.prepare("SELECT digest FROM movie_index_digests WHERE key = ?", [.text(key)])
        if try stored.step(), stored.int64(at: 0) == digest {
            let fetchedAt = movies.map(\.fetchedAt).max() ?? movies[0].fetchedAt
            try connection.run("""
                UPDATE movie_text SET fetched_at = ?1
                WHERE fetched_at < ?1 AND id IN (SELECT movie FROM movie_sources WHERE key = ?2)
                """, [.date(fetchedAt), .text(key)])
            return
        }
        var listed = Set<Int64>()
        for movie in movies {
            let identity: [SQLiteValue] = [.integer(Int64(movie.movieID)), .text(movie.language)]
            let upserted = try connection.prepare("""
                INSERT INTO movie_text (movie_id, language, title, original_title, overview, popularity, summary, fetched_at, unspaced, summary_version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (movie_id, language) DO UPDATE SET
                    title = excluded.title, original_title = excluded.original_title, overview = excluded.overview,
                    popularity = excluded.popularity, summary = excluded.summary, fetched_at = excluded.fetched_at,
                    unspaced = excluded.unspaced, summary_version = excluded.summary_version
                WHERE excluded.fetched_at >= movie_text.fetched_at
                RETURNING id
                """, identity + [
                    .text(movie.title), .text(movie.originalTitle), .text(movie.overview), .real(movie.popularity),
                    .blob(movie.summary), .date(movie.fetchedAt),
                    .integer(SearchText.hasUnspacedScript(movie.title + movie.originalTitle) ? 1 : 0),
                    .int(MovieIndexing.summaryVersion),
                ])
            var id: Int64?
            while try upserted.step() { id = upserted.int64(at: 0) }
            if id == nil {
                // A newer text of the movie was kept: the row is there, with its id.
                let found = try connection.prepare("SELECT id FROM movie_text WHERE movie_id = ? AND language = ?", identity)
                if try found.step() { id = found.int64(at: 0) }
            }
            guard let id else { continue }
            listed.insert(id)
            try connection.run("INSERT OR IGNORE INTO movie_sources (key, movie) VALUES (?, ?)", [.text(key), .integer(id)])
        }
        var dropped: [Int64] = []
        do {
            let sources = try connection.prepare("SELECT movie FROM movie_sources WHERE key = ?", [.text(key)])
            while try sources.step() {
                let movie = sources.int64(at: 0)
                if !listed.contains(movie) { dropped.append(movie) }
            }
        }
        for movie in dropped {
            try connection.run("DELETE FROM movie_sources WHERE key = ? AND movie = ?", [.text(key), .integer(movie)])
        }
        try connection.run("""
            INSERT INTO movie_index_digests (key, digest) VALUES (?, ?)
            ON CONFLICT (key) DO UPDATE SET digest = excluded.digest
            """, [.text(key), .integer(digest)])
    }

    /// Queues again every response that lists the indexed movies `rows` (ids of `movie_text`),
    /// their digests forgotten, so that the next catch-up writes their summaries anew (a summary
    /// a search found of another version, or undecodable: `MovieIndexing.movie`).
    static func requeue(_ rows: [Int64], in connection: SQLiteConnection) throws {
        for row in rows {
            try connection.run("DELETE FROM movie_index_digests WHERE key IN (SELECT key FROM movie_sources WHERE movie = ?)", [.integer(row)])
            try connection.run("INSERT INTO movie_index_queue (key) SELECT key FROM movie_sources WHERE movie = ?", [.integer(row)])
        }
    }

    /// FNV-1a (64 bits) over everything indexed of `movies` but when they were fetched, and the
    /// summaries' version.
    static func digest(of movies: [IndexedMovie]) -> UInt64 {
        var hasher = FNV1a()
        withUnsafeBytes(of: Int64(MovieIndexing.summaryVersion).littleEndian) { hasher.addField($0) }
        for movie in movies {
            withUnsafeBytes(of: Int64(movie.movieID).littleEndian) { hasher.addField($0) }
            withUnsafeBytes(of: movie.popularity.bitPattern.littleEndian) { hasher.addField($0) }
            hasher.addField(movie.language.utf8)
            hasher.addField(movie.title.utf8)
            hasher.addField(movie.originalTitle.utf8)
            hasher.addField(movie.overview.utf8)
            movie.summary.withUnsafeBytes { hasher.addField($0) }
        }
        return hasher.value
    }

}
