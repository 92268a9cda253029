import MoviesData

/// What a write transaction changed in `responses`, as SQLite itself reports it: TEMP triggers on
/// the writer's connection note the key of every row an `INSERT`, a `DELETE` or an `UPDATE` of a
/// column the memory holds touched, whoever wrote it (a storage adapter, a migration, a test's raw
/// SQL). Before the commit, `collect` reads the notes back (and the new state of the rows worth
/// remembering); after it, the writer hands them to the memory (`ResponseMemory.committed`). A
/// rollback rolls the notes back with everything else, so it applies nothing.
///
/// TEMP triggers rather than `sqlite3_update_hook`: the hook reports rowids, which would have to be
/// mapped back to keys (the rows deleted are gone by then), and SQLite does not call it for
/// `WITHOUT ROWID` tables nor for changes made by conflict resolution; a trigger has the key at
/// hand. `last_access`, `pinned` and `validated_at` are not the memory's, so writing them (an
/// access-time flush, pinning) notes nothing.
enum ResponseChangeLog {
    /// The table and triggers, in the connection's `temp` schema: one row per change (a key
    /// changed twice has two; no constraint: a trigger's conflict clause gives way to the outer
    /// statement's, an upsert's among them). `rewritten` marks rows inserted or given a new body or
    /// reply: remembered afresh, as a save always was; the others' entries are re-read only when
    /// the memory holds them.
    static let schema = """
        CREATE TEMP TABLE changed_responses (key TEXT NOT NULL, rewritten INT NOT NULL);
        CREATE TEMP TRIGGER changed_responses_inserted AFTER INSERT ON main.responses BEGIN
            INSERT INTO changed_responses (key, rewritten) VALUES (new.key, 1);
        END;
        CREATE TEMP TRIGGER changed_responses_rewritten
        AFTER UPDATE OF key, resource, body, content_type, http_status, reply, reply_version ON main.responses BEGIN
            INSERT INTO changed_responses (key, rewritten) VALUES (old.key, 0), (new.key, 1);
        END;
        CREATE TEMP TRIGGER changed_responses_updated AFTER UPDATE OF fetched_at, expires_at, etag, last_modified ON main.responses BEGIN
            INSERT INTO changed_responses (key, rewritten) VALUES (new.key, 0);
        END;
        CREATE TEMP TRIGGER changed_responses_deleted AFTER DELETE ON main.responses BEGIN
            INSERT INTO changed_responses (key, rewritten) VALUES (old.key, 0);
        END;
        """

    /// Installs the triggers on the writer's `connection` when its database has a `responses`
    /// table (the cache database; not the state database); returns whether it did.
    static func install(on connection: SQLiteConnection) throws -> Bool {
        guard try connection.integer("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'responses'") == 1 else { return false }
        try connection.execute(schema)
        return true
    }

    /// The keys the transaction so far touched, and the current row of each that `memory` holds
    /// or that was rewritten (a deleted one has none; the body is not read when a current reply
    /// stands for it); empties the notes. Runs inside the transaction, before its commit. Without
    /// a memory, only empties them.
    static func collect(in connection: SQLiteConnection, for memory: ResponseMemory?) throws -> ResponseMemory.Changes? {
        var touched: [(key: String, rewritten: Bool)] = []
        let notes = try connection.prepare("SELECT key, max(rewritten) FROM temp.changed_responses GROUP BY key")
        while try notes.step() { touched.append((notes.text(at: 0) ?? "", notes.int64(at: 1) != 0)) }
        guard !touched.isEmpty else { return nil }
        try connection.run("DELETE FROM temp.changed_responses")
        guard let memory else { return nil }
        var current: [StoredResponse] = []
        for (key, rewritten) in touched where rewritten || memory.holds(key) {
            if let row = try ResponseRow.load(key: key, from: connection, skippingUnknown: true, bodyUnlessReplyVersion: memory.replyVersion) {
                current.append(row)
            }
        }
        return ResponseMemory.Changes(touched: touched.map(\.key), current: current)
    }
}
