import Testing
@testable import SQLiteStore

/// The schema's indexes, checked through SQLite's query plans (no timing): a key lookup is one
/// index search whatever the table size, and eviction and recent-query order need no sort.
@Suite struct StoreSchemaTests {
    static func plan(_ sql: String) async throws -> String {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 1)
            let plan = try await store.read { connection in
                let statement = try connection.prepare("EXPLAIN QUERY PLAN " + sql, [.text("k")])
                var details: [String] = []
                while try statement.step() { details.append(statement.text(at: 3) ?? "") }
                return details.joined(separator: "\n")
            }
            await store.close()
            return plan
        }
    }

    @Test func keyLookupSearchesThePrimaryKeyIndex() async throws {
        let plan = try await Self.plan("SELECT body FROM responses WHERE key = ?")
        #expect(plan.contains("SEARCH responses USING INDEX sqlite_autoindex_responses_1 (key=?)"))
        #expect(!plan.contains("SCAN"))
    }

    @Test func evictionOrderUsesTheLRUIndexWithoutSorting() async throws {
        let plan = try await Self.plan("SELECT key, size FROM responses WHERE pinned = 0 AND key != ? ORDER BY last_access")
        #expect(plan.contains("responses_lru"))
        #expect(!plan.contains("TEMP B-TREE"))
    }

    /// The byte budget's total and `Status`'s statistics never read a row (a row's `size` lies
    /// after its body, so a table scan reads every body's overflow pages).
    @Test(arguments: [
        "SELECT sum(size) FROM responses WHERE expires_at != ?",
        """
        SELECT count(*), coalesce(sum(size), 0), coalesce(sum(expires_at <= ?), 0), coalesce(sum(pinned != 0), 0),
               coalesce(sum(CASE WHEN pinned != 0 THEN size END), 0)
        FROM responses
        """,
    ])
    func budgetAndStatisticsReadOnlyTheLRUIndex(sql: String) async throws {
        let plan = try await Self.plan(sql)
        #expect(plan.contains("COVERING INDEX responses_lru"), "\(plan)")
    }

    @Test func recentQueriesAreReadInIndexOrder() async throws {
        let plan = try await Self.plan("SELECT query FROM recent_queries WHERE canonical != ? ORDER BY saved_at DESC, rowid DESC LIMIT 10")
        #expect(plan.contains("recent_queries_saved_at"))
        #expect(!plan.contains("TEMP B-TREE"))
    }
}
