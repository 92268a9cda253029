import FoundationEssentials
import MoviesData
import MoviesDomain

/// `AccountStorage` in the state database (state schema version 2): `account_outbox`,
/// `account_items` and `account_sync`. Every method is one transaction.
public final class SQLiteAccountStorage: AccountStorage {
    private let store: SQLiteStore

    /// Creates the storage over the state database.
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// Appends `edit`, superseding what `OutboxCompaction` says it supersedes.
    public func enqueue(_ edit: AccountEdit, accountID: Int, at date: Date) async throws -> PendingEdit {
        try await store.write { connection in
            let plan = OutboxCompaction.plan(for: edit, over: try Self.entries(accountID, in: connection, movieID: edit.movieID))
            if let converted = plan.convertedToWatchlistRemoval {
                try connection.run("UPDATE account_outbox SET list = 'watchlist', value = 0 WHERE seq = ?", [.integer(converted)])
            }
            for id in plan.deleted { try connection.run("DELETE FROM account_outbox WHERE seq = ?", [.integer(id)]) }
            try connection.run(
                "INSERT INTO account_outbox (account_id, list, movie_id, value, created_at) VALUES (?, ?, ?, ?, ?)",
                [.int(accountID), .text(edit.list.rawValue), .int(edit.movieID), Self.value(edit.value), .date(date)])
            let id = try connection.integer("SELECT last_insert_rowid()") ?? 0
            try Self.touch(accountID, at: date, in: connection)
            return PendingEdit(id: id, edit: edit, state: .pending, createdAt: date)
        }
    }

    /// The lists, the outbox and the account's bookkeeping.
    public func snapshot(accountID: Int) async throws -> AccountSnapshot {
        try await store.read { connection in
            var snapshot = AccountSnapshot(lists: try Self.lists(accountID, in: connection))
            snapshot.entries = try Self.entries(accountID, in: connection)
            let sync = try connection.prepare("SELECT username, pulled_at, last_success_at, last_error FROM account_sync WHERE account_id = ?", [.int(accountID)])
            if try sync.step() {
                snapshot.username = sync.text(at: 0)
                snapshot.pulledAt = sync.isNull(at: 1) ? nil : Date(timeIntervalSince1970: sync.double(at: 1))
                snapshot.lastSuccessAt = sync.isNull(at: 2) ? nil : Date(timeIntervalSince1970: sync.double(at: 2))
                snapshot.lastError = sync.text(at: 3)
            }
            return snapshot
        }
    }

    /// Entry `id` delivered; the lists take `edit` (and its side effect on the watchlist).
    public func markDelivered(_ id: Int64, edit: AccountEdit, accountID: Int, at date: Date) async throws {
        try await store.write { connection in
            try connection.run(
                "UPDATE account_outbox SET state = 'delivered', settled_at = ?, attempts = attempts + 1, last_error = NULL, next_attempt_at = NULL WHERE seq = ? AND state = 'pending'",
                [.date(date), .integer(id)])
            try Self.apply(edit, accountID: accountID, in: connection)
            try connection.run(
                "INSERT INTO account_sync (account_id, last_success_at, last_error, used_at) VALUES (?, ?, NULL, ?) ON CONFLICT(account_id) DO UPDATE SET last_success_at = excluded.last_success_at, last_error = NULL",
                [.int(accountID), .date(date), .date(date)])
        }
    }

    /// Counts a failed attempt of entry `id`.
    public func markFailed(_ id: Int64, error: String, nextAttemptAt: Date?) async throws {
        try await store.write { connection in
            try connection.run(
                "UPDATE account_outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE seq = ? AND state = 'pending'",
                [.text(error), nextAttemptAt.map(SQLiteValue.date) ?? .null, .integer(id)])
        }
    }

    /// Entry `id` refused for good: it stops applying.
    public func reject(_ id: Int64, reason: String, at date: Date) async throws {
        try await store.write { connection in
            try connection.run(
                "UPDATE account_outbox SET state = 'rejected', attempts = attempts + 1, last_error = ?, settled_at = ?, next_attempt_at = NULL WHERE seq = ?",
                [.text(reason), .date(date), .integer(id)])
        }
    }

    /// Replaces the pulled lists; removes the delivered entries they confirm or that waited too long.
    public func replaceLists(_ lists: [AccountList: [AccountItem]], accountID: Int, pulledAt: Date, unconfirmedBefore: Date) async throws -> Int {
        try await store.write { connection in
            try connection.run("DELETE FROM account_items WHERE account_id = ?", [.int(accountID)])
            for (list, items) in lists {
                for (position, item) in items.enumerated() {
                    try connection.runReused(
                        "INSERT OR REPLACE INTO account_items (account_id, list, movie_id, position, title, release_date, rating) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        [.int(accountID), .text(list.rawValue), .int(item.movieID), .int(position), .optionalText(item.title), .optionalText(item.releaseDate), Self.value(item.rating)])
                }
            }
            var delivered: [PendingEdit] = []
            let rows = try connection.prepare("SELECT seq, list, movie_id, value, created_at, settled_at FROM account_outbox WHERE account_id = ? AND state = 'delivered' ORDER BY seq", [.int(accountID)])
            var expired: [Int64] = []
            while try rows.step() {
                guard let list = rows.text(at: 1).flatMap(AccountList.init(rawValue:)) else { continue }
                let edit = AccountEdit.stored(list: list, movieID: Int(rows.int64(at: 2)), value: rows.isNull(at: 3) ? nil : rows.double(at: 3))
                delivered.append(PendingEdit(id: rows.int64(at: 0), edit: edit, state: .delivered, createdAt: Date(timeIntervalSince1970: rows.double(at: 4))))
                if rows.double(at: 5) < unconfirmedBefore.timeIntervalSince1970 { expired.append(rows.int64(at: 0)) }
            }
            let settled = Set(AccountOverlay.confirmed(delivered, pulled: lists)).union(expired)
            for id in settled { try connection.run("DELETE FROM account_outbox WHERE seq = ?", [.integer(id)]) }
            try connection.run(
                "INSERT INTO account_sync (account_id, pulled_at, used_at) VALUES (?, ?, ?) ON CONFLICT(account_id) DO UPDATE SET pulled_at = excluded.pulled_at",
                [.int(accountID), .date(pulledAt), .date(pulledAt)])
            return settled.count
        }
    }

    /// Every waiting entry due now.
    public func makeDue(accountID: Int) async throws {
        try await store.write { connection in
            try connection.run("UPDATE account_outbox SET next_attempt_at = NULL WHERE account_id = ? AND state = 'pending'", [.int(accountID)])
        }
    }

    /// Records the user name and the last outcome.
    public func recordSync(accountID: Int, username: String?, succeededAt: Date?, error: String?) async throws {
        try await store.write { connection in
            try connection.run(
                """
                INSERT INTO account_sync (account_id, username, last_success_at, last_error, used_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(account_id) DO UPDATE SET username = coalesce(excluded.username, username),
                    last_success_at = coalesce(excluded.last_success_at, last_success_at), last_error = excluded.last_error, used_at = excluded.used_at
                """,
                [.int(accountID), .optionalText(username), succeededAt.map(SQLiteValue.date) ?? .null, .optionalText(error), .date(succeededAt ?? Date())])
        }
    }

    /// Removes the rejected entries.
    public func dismissRejected(accountID: Int) async throws -> Int {
        try await store.write { connection in
            try connection.run("DELETE FROM account_outbox WHERE account_id = ? AND state = 'rejected'", [.int(accountID)])
        }
    }

    /// The account used last.
    public func lastAccount() async throws -> (id: Int, username: String?)? {
        try await store.read { connection in
            let row = try connection.prepare("SELECT account_id, username FROM account_sync ORDER BY used_at DESC LIMIT 1")
            guard try row.step() else { return nil }
            return (Int(row.int64(at: 0)), row.text(at: 1))
        }
    }

    // MARK: Helpers

    private static func value(_ value: Double?) -> SQLiteValue {
        value.map(SQLiteValue.real) ?? .null
    }

    /// The outbox of `accountID` (of one movie when given), oldest first.
    private static func entries(_ accountID: Int, in connection: SQLiteConnection, movieID: Int? = nil) throws -> [PendingEdit] {
        let filter = movieID == nil ? "" : " AND movie_id = ?"
        let rows = try connection.prepare(
            "SELECT seq, list, movie_id, value, state, created_at, attempts, last_error, next_attempt_at FROM account_outbox WHERE account_id = ?\(filter) ORDER BY seq",
            [.int(accountID)] + (movieID.map { [.int($0)] } ?? []))
        var entries: [PendingEdit] = []
        while try rows.step() {
            guard let list = rows.text(at: 1).flatMap(AccountList.init(rawValue:)),
                  let state = rows.text(at: 4).flatMap(PendingEdit.State.init(rawValue:)) else { continue }
            let edit = AccountEdit.stored(list: list, movieID: Int(rows.int64(at: 2)), value: rows.isNull(at: 3) ? nil : rows.double(at: 3))
            entries.append(PendingEdit(
                id: rows.int64(at: 0), edit: edit, state: state, createdAt: Date(timeIntervalSince1970: rows.double(at: 5)),
                attempts: Int(rows.int64(at: 6)), lastError: rows.text(at: 7),
                nextAttemptAt: rows.isNull(at: 8) ? nil : Date(timeIntervalSince1970: rows.double(at: 8))))
        }
        return entries
    }

    private static func touch(_ accountID: Int, at date: Date, in connection: SQLiteConnection) throws {
        try connection.run(
            "INSERT INTO account_sync (account_id, used_at) VALUES (?, ?) ON CONFLICT(account_id) DO UPDATE SET used_at = excluded.used_at",
            [.int(accountID), .date(date)])
    }

    private static func lists(_ accountID: Int, in connection: SQLiteConnection, movieID: Int? = nil) throws -> [AccountList: [AccountItem]] {
        var lists: [AccountList: [AccountItem]] = [:]
        let filter = movieID == nil ? "" : " AND movie_id = ?"
        let rows = try connection.prepare(
            "SELECT list, movie_id, title, release_date, rating FROM account_items WHERE account_id = ?\(filter) ORDER BY list, position",
            [.int(accountID)] + (movieID.map { [.int($0)] } ?? []))
        while try rows.step() {
            guard let list = rows.text(at: 0).flatMap(AccountList.init(rawValue:)) else { continue }
            lists[list, default: []].append(AccountItem(
                movieID: Int(rows.int64(at: 1)), title: rows.text(at: 2), releaseDate: rows.text(at: 3), rating: rows.isNull(at: 4) ? nil : rows.double(at: 4)))
        }
        return lists
    }

    /// The pulled lists of `edit`'s movie after `edit`, written back (new rows go last).
    private static func apply(_ edit: AccountEdit, accountID: Int, in connection: SQLiteConnection) throws {
        let movie = edit.movieID
        var rows = try lists(accountID, in: connection, movieID: movie)
        let before = rows
        AccountOverlay.apply(edit, to: &rows, pending: false, titles: AccountOverlay.knownTitles(in: rows))
        for list in AccountList.allCases where before[list] != rows[list] {
            let item = rows[list]?.first
            if let item {
                let updated = try connection.run(
                    "UPDATE account_items SET rating = ? WHERE account_id = ? AND list = ? AND movie_id = ?",
                    [value(item.rating), .int(accountID), .text(list.rawValue), .int(movie)])
                if updated == 0 {
                    try connection.run(
                        """
                        INSERT INTO account_items (account_id, list, movie_id, position, title, release_date, rating)
                        VALUES (?, ?, ?, (SELECT coalesce(max(position), -1) + 1 FROM account_items WHERE account_id = ? AND list = ?), ?, ?, ?)
                        """,
                        [.int(accountID), .text(list.rawValue), .int(movie), .int(accountID), .text(list.rawValue), .optionalText(item.title), .optionalText(item.releaseDate), value(item.rating)])
                }
            } else {
                try connection.run("DELETE FROM account_items WHERE account_id = ? AND list = ? AND movie_id = ?", [.int(accountID), .text(list.rawValue), .int(movie)])
            }
        }
    }
}
