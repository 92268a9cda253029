import FoundationEssentials
import MoviesData
import MoviesDomain

/// `AccountStorage` in the state database (state schema version 2, owned rows since version 5):
/// `account_outbox`, `account_items` and `account_sync`, of one owner's account only: every
/// statement is limited to `owner`'s rows, so one user's storage never reads or changes another's.
/// Every method is one transaction.
public final class SQLiteAccountStorage: AccountStorage {
    private let store: SQLiteStore
    /// Whose account's rows these are.
    public let owner: Owner
    private var ownerValue: SQLiteValue { owner.storedValue }

    /// Creates the storage of `owner`'s account over the state database.
    public init(store: SQLiteStore, owner: Owner = .system) {
        self.store = store
        self.owner = owner
    }

    /// Appends `edit`, superseding what `OutboxCompaction` says it supersedes.
    public func enqueue(_ edit: AccountEdit, accountID: Int, at date: Date) async throws -> PendingEdit {
        let owner = ownerValue
        return try await store.write { connection in
            let plan = OutboxCompaction.plan(for: edit, over: try Self.entries(owner, accountID, in: connection, movieID: edit.movieID))
            if let converted = plan.convertedToWatchlistRemoval {
                try connection.run("UPDATE account_outbox SET list = 'watchlist', value = 0 WHERE seq = ? AND owner = ?", [.integer(converted), owner])
            }
            for id in plan.deleted { try connection.run("DELETE FROM account_outbox WHERE seq = ? AND owner = ?", [.integer(id), owner]) }
            try connection.run(
                "INSERT INTO account_outbox (owner, account_id, list, movie_id, value, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [owner, .int(accountID), .text(edit.list.rawValue), .int(edit.movieID), Self.value(edit.value), .date(date)])
            let id = try connection.integer("SELECT last_insert_rowid()") ?? 0
            try Self.touch(owner, accountID, at: date, in: connection)
            return PendingEdit(id: id, edit: edit, state: .pending, createdAt: date)
        }
    }

    /// The lists, the outbox and the account's bookkeeping.
    public func snapshot(accountID: Int) async throws -> AccountSnapshot {
        let owner = ownerValue
        return try await store.read { connection in
            var snapshot = AccountSnapshot(lists: try Self.lists(owner, accountID, in: connection))
            snapshot.entries = try Self.entries(owner, accountID, in: connection)
            let sync = try Self.bookkeeping(owner, accountID, in: connection)
            (snapshot.username, snapshot.pulledAt, snapshot.lastSuccessAt, snapshot.lastError) = (sync.username, sync.pulledAt, sync.lastSuccessAt, sync.lastError)
            return snapshot
        }
    }

    /// The outbox's counts by state and the bookkeeping: one grouped count on the outbox's index.
    public func outboxSummary(accountID: Int) async throws -> AccountOutboxSummary {
        let owner = ownerValue
        return try await store.read { connection in
            var summary = AccountOutboxSummary()
            let counts = try connection.prepare(
                "SELECT state, count(*) FROM account_outbox WHERE owner = ? AND account_id = ? GROUP BY state", [owner, .int(accountID)])
            while try counts.step() {
                let count = Int(counts.int64(at: 1))
                switch counts.text(at: 0).flatMap(PendingEdit.State.init(rawValue:)) {
                case .pending?: summary.pending = count
                case .delivered?: summary.delivered = count
                case .rejected?: summary.rejected = count
                case .blockedOnAuth?, nil: break  // not counted in Status (as the snapshot's count)
                }
            }
            let sync = try Self.bookkeeping(owner, accountID, in: connection)
            (summary.username, summary.pulledAt, summary.lastSuccessAt, summary.lastError) = (sync.username, sync.pulledAt, sync.lastSuccessAt, sync.lastError)
            return summary
        }
    }

    /// Entry `id` delivered; the lists take `edit` (and its side effect on the watchlist).
    public func markDelivered(_ id: Int64, edit: AccountEdit, accountID: Int, at date: Date) async throws {
        let owner = ownerValue
        try await store.write { connection in
            try connection.run(
                "UPDATE account_outbox SET state = 'delivered', settled_at = ?, attempts = attempts + 1, last_error = NULL, next_attempt_at = NULL WHERE seq = ? AND owner = ? AND state = 'pending'",
                [.date(date), .integer(id), owner])
            try Self.apply(edit, owner: owner, accountID: accountID, in: connection)
            try connection.run(
                "INSERT INTO account_sync (owner, account_id, last_success_at, last_error, used_at) VALUES (?, ?, ?, NULL, ?) ON CONFLICT(owner, account_id) DO UPDATE SET last_success_at = excluded.last_success_at, last_error = NULL",
                [owner, .int(accountID), .date(date), .date(date)])
        }
    }

    /// Counts a failed attempt of entry `id`.
    public func markFailed(_ id: Int64, error: String, nextAttemptAt: Date?) async throws {
        let owner = ownerValue
        try await store.write { connection in
            try connection.run(
                "UPDATE account_outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE seq = ? AND owner = ? AND state = 'pending'",
                [.text(error), nextAttemptAt.map(SQLiteValue.date) ?? .null, .integer(id), owner])
        }
    }

    /// Entry `id` refused for good: it stops applying.
    public func reject(_ id: Int64, reason: String, at date: Date) async throws {
        let owner = ownerValue
        try await store.write { connection in
            try connection.run(
                "UPDATE account_outbox SET state = 'rejected', attempts = attempts + 1, last_error = ?, settled_at = ?, next_attempt_at = NULL WHERE seq = ? AND owner = ?",
                [.text(reason), .date(date), .integer(id), owner])
        }
    }

    /// Replaces the pulled lists; removes the delivered entries they confirm or that waited too long.
    public func replaceLists(_ lists: [AccountList: [AccountItem]], accountID: Int, pulledAt: Date, expired: Set<Int64>) async throws -> Int {
        let owner = ownerValue
        return try await store.write { connection in
            try connection.run("DELETE FROM account_items WHERE owner = ? AND account_id = ?", [owner, .int(accountID)])
            for (list, items) in lists {
                for (position, item) in items.enumerated() {
                    try connection.run(
                        "INSERT OR REPLACE INTO account_items (owner, account_id, list, movie_id, position, title, release_date, rating) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [owner, .int(accountID), .text(list.rawValue), .int(item.movieID), .int(position), .optionalText(item.title), .optionalText(item.releaseDate), Self.value(item.rating)])
                }
            }
            var delivered: [PendingEdit] = []
            let rows = try connection.prepare(
                "SELECT seq, list, movie_id, value, created_at FROM account_outbox WHERE owner = ? AND account_id = ? AND state = 'delivered' ORDER BY seq",
                [owner, .int(accountID)])
            while try rows.step() {
                guard let list = rows.text(at: 1).flatMap(AccountList.init(rawValue:)) else { continue }
                let edit = AccountEdit.stored(list: list, movieID: Int(rows.int64(at: 2)), value: rows.isNull(at: 3) ? nil : rows.double(at: 3))
                delivered.append(PendingEdit(id: rows.int64(at: 0), edit: edit, state: .delivered, createdAt: Date(timeIntervalSince1970: rows.double(at: 4))))
            }
            let settled = Set(AccountOverlay.confirmed(delivered, pulled: lists)).union(expired.intersection(delivered.map(\.id)))
            for id in settled { try connection.run("DELETE FROM account_outbox WHERE seq = ? AND owner = ?", [.integer(id), owner]) }
            try connection.run(
                "INSERT INTO account_sync (owner, account_id, pulled_at, used_at) VALUES (?, ?, ?, ?) ON CONFLICT(owner, account_id) DO UPDATE SET pulled_at = excluded.pulled_at",
                [owner, .int(accountID), .date(pulledAt), .date(pulledAt)])
            return settled.count
        }
    }

    /// Every waiting entry due now.
    public func makeDue(accountID: Int) async throws {
        let owner = ownerValue
        try await store.write { connection in
            try connection.run("UPDATE account_outbox SET next_attempt_at = NULL WHERE owner = ? AND account_id = ? AND state = 'pending'", [owner, .int(accountID)])
        }
    }

    /// Records the user name and the last outcome.
    public func recordSync(accountID: Int, username: String?, succeededAt: Date?, error: String?) async throws {
        let owner = ownerValue
        try await store.write { connection in
            try connection.run(
                """
                INSERT INTO account_sync (owner, account_id, username, last_success_at, last_error, used_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(owner, account_id) DO UPDATE SET username = coalesce(excluded.username, username),
                    last_success_at = coalesce(excluded.last_success_at, last_success_at), last_error = excluded.last_error, used_at = excluded.used_at
                """,
                [owner, .int(accountID), .optionalText(username), succeededAt.map(SQLiteValue.date) ?? .null, .optionalText(error), .date(succeededAt ?? Date())])
        }
    }

    /// Removes the rejected entries.
    public func dismissRejected(accountID: Int) async throws -> Int {
        let owner = ownerValue
        return try await store.write { connection in
            try connection.run("DELETE FROM account_outbox WHERE owner = ? AND account_id = ? AND state = 'rejected'", [owner, .int(accountID)])
        }
    }

    /// The account used last.
    public func lastAccount() async throws -> (id: Int, username: String?)? {
        let owner = ownerValue
        return try await store.read { connection in
            let row = try connection.prepare("SELECT account_id, username FROM account_sync WHERE owner = ? ORDER BY used_at DESC LIMIT 1", [owner])
            guard try row.step() else { return nil }
            return (Int(row.int64(at: 0)), row.text(at: 1))
        }
    }

    // MARK: Helpers

    private static func value(_ value: Double?) -> SQLiteValue {
        value.map(SQLiteValue.real) ?? .null
    }

    /// The outbox of `accountID` (of one movie when given), oldest first.
    private static func entries(_ owner: SQLiteValue, _ accountID: Int, in connection: SQLiteConnection, movieID: Int? = nil) throws -> [PendingEdit] {
        let filter = movieID == nil ? "" : " AND movie_id = ?"
        let rows = try connection.prepare(
            "SELECT seq, list, movie_id, value, state, created_at, attempts, last_error, next_attempt_at, settled_at FROM account_outbox WHERE owner = ? AND account_id = ?\(filter) ORDER BY seq",
            [owner, .int(accountID)] + (movieID.map { [.int($0)] } ?? []))
        var entries: [PendingEdit] = []
        while try rows.step() {
            guard let list = rows.text(at: 1).flatMap(AccountList.init(rawValue:)),
                  let state = rows.text(at: 4).flatMap(PendingEdit.State.init(rawValue:)) else { continue }
            let edit = AccountEdit.stored(list: list, movieID: Int(rows.int64(at: 2)), value: rows.isNull(at: 3) ? nil : rows.double(at: 3))
            entries.append(PendingEdit(
                id: rows.int64(at: 0), edit: edit, state: state, createdAt: Date(timeIntervalSince1970: rows.double(at: 5)),
                attempts: Int(rows.int64(at: 6)), lastError: rows.text(at: 7),
                nextAttemptAt: rows.isNull(at: 8) ? nil : Date(timeIntervalSince1970: rows.double(at: 8)),
                settledAt: rows.isNull(at: 9) ? nil : Date(timeIntervalSince1970: rows.double(at: 9))))
        }
        return entries
    }

    /// The account's bookkeeping row (user name, last pull, last success, last error), if any.
    private static func bookkeeping(
        _ owner: SQLiteValue, _ accountID: Int, in connection: SQLiteConnection
    ) throws -> (username: String?, pulledAt: Date?, lastSuccessAt: Date?, lastError: String?) {
        let sync = try connection.prepare(
            "SELECT username, pulled_at, last_success_at, last_error FROM account_sync WHERE owner = ? AND account_id = ?", [owner, .int(accountID)])
        guard try sync.step() else { return (nil, nil, nil, nil) }
        return (
            sync.text(at: 0), sync.isNull(at: 1) ? nil : Date(timeIntervalSince1970: sync.double(at: 1)),
            sync.isNull(at: 2) ? nil : Date(timeIntervalSince1970: sync.double(at: 2)), sync.text(at: 3))
    }

    private static func touch(_ owner: SQLiteValue, _ accountID: Int, at date: Date, in connection: SQLiteConnection) throws {
        try connection.run(
            "INSERT INTO account_sync (owner, account_id, used_at) VALUES (?, ?, ?) ON CONFLICT(owner, account_id) DO UPDATE SET used_at = excluded.used_at",
            [owner, .int(accountID), .date(date)])
    }

    private static func lists(_ owner: SQLiteValue, _ accountID: Int, in connection: SQLiteConnection, movieID: Int? = nil) throws -> [AccountList: [AccountItem]] {
        var lists: [AccountList: [AccountItem]] = [:]
        let filter = movieID == nil ? "" : " AND movie_id = ?"
        let rows = try connection.prepare(
            "SELECT list, movie_id, title, release_date, rating FROM account_items WHERE owner = ? AND account_id = ?\(filter) ORDER BY list, position",
            [owner, .int(accountID)] + (movieID.map { [.int($0)] } ?? []))
        while try rows.step() {
            guard let list = rows.text(at: 0).flatMap(AccountList.init(rawValue:)) else { continue }
            lists[list, default: []].append(AccountItem(
                movieID: Int(rows.int64(at: 1)), title: rows.text(at: 2), releaseDate: rows.text(at: 3), rating: rows.isNull(at: 4) ? nil : rows.double(at: 4)))
        }
        return lists
    }

    /// The pulled lists of `edit`'s movie after `edit`, written back (new rows go last).
    private static func apply(_ edit: AccountEdit, owner: SQLiteValue, accountID: Int, in connection: SQLiteConnection) throws {
        let movie = edit.movieID
        var rows = try lists(owner, accountID, in: connection, movieID: movie)
        let before = rows
        AccountOverlay.apply(edit, to: &rows, pending: false, titles: AccountOverlay.knownTitles(in: rows))
        for list in AccountList.allCases where before[list] != rows[list] {
            let item = rows[list]?.first
            if let item {
                let updated = try connection.run(
                    "UPDATE account_items SET rating = ? WHERE owner = ? AND account_id = ? AND list = ? AND movie_id = ?",
                    [value(item.rating), owner, .int(accountID), .text(list.rawValue), .int(movie)])
                if updated == 0 {
                    try connection.run(
                        """
                        INSERT INTO account_items (owner, account_id, list, movie_id, position, title, release_date, rating)
                        VALUES (?, ?, ?, ?, (SELECT coalesce(max(position), -1) + 1 FROM account_items WHERE owner = ? AND account_id = ? AND list = ?), ?, ?, ?)
                        """,
                        [owner, .int(accountID), .text(list.rawValue), .int(movie), owner, .int(accountID), .text(list.rawValue), .optionalText(item.title), .optionalText(item.releaseDate), value(item.rating)])
                }
            } else {
                try connection.run(
                    "DELETE FROM account_items WHERE owner = ? AND account_id = ? AND list = ? AND movie_id = ?", [owner, .int(accountID), .text(list.rawValue), .int(movie)])
            }
        }
    }
}

extension SQLiteAccountStorage {
    /// Every owner with rows of an account (outbox entries or bookkeeping): the accounts whose
    /// outboxes the daemon drains after a start, before their users call again.
    public static func owners(in store: SQLiteStore) async throws -> [Owner] {
        try await store.read { connection in
            let rows = try connection.prepare("SELECT owner FROM account_sync UNION SELECT owner FROM account_outbox ORDER BY owner")
            var owners: [Owner] = []
            while try rows.step() {
                if let owner = Owner(storedID: rows.int64(at: 0)) { owners.append(owner) }
            }
            return owners
        }
    }
}
