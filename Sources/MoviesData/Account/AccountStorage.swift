import FoundationEssentials
import MoviesDomain

/// Port: the account's outbox and its last pulled lists, in the state database (adapter
/// `SQLiteAccountStorage`; tests also use an in-memory one). Every method is one transaction, so
/// an edit and its outbox entry, or a delivery and the lists it changes, are kept together or not
/// at all.
public protocol AccountStorage: Sendable {
    /// Appends `edit` for `accountID`, dropping the earlier entries of the same list and movie that
    /// are not rejected (the newest intent supersedes them). Returns the new entry.
    func enqueue(_ edit: AccountEdit, accountID: Int, at date: Date) async throws -> PendingEdit
    /// The account's pulled lists and its outbox (oldest first), with its bookkeeping.
    func snapshot(accountID: Int) async throws -> AccountSnapshot
    /// How many outbox entries are in each state, with the bookkeeping: what `Status` shows, read
    /// without the lists or the entries themselves (an outbox may hold thousands).
    func outboxSummary(accountID: Int) async throws -> AccountOutboxSummary
    /// TMDB accepted `edit` (entry `id`): the entry becomes delivered, if still there, and the
    /// pulled lists take the change (with TMDB's side effects).
    func markDelivered(_ id: Int64, edit: AccountEdit, accountID: Int, at date: Date) async throws
    /// An attempt of entry `id` failed in a way that may pass: counts it, keeps why and when to try again.
    func markFailed(_ id: Int64, error: String, nextAttemptAt: Date?) async throws
    /// TMDB refused entry `id` for good: it stops applying and keeps `reason`.
    func reject(_ id: Int64, reason: String, at date: Date) async throws
    /// Replaces the pulled lists with `lists` (pulled starting at `pulledAt`); delivered entries the
    /// lists now show (`AccountOverlay.confirmed`), and the delivered entries `expired` names (their
    /// grace is over: the sync decides, on its monotonic clock), are removed. Returns how many.
    func replaceLists(_ lists: [AccountList: [AccountItem]], accountID: Int, pulledAt: Date, expired: Set<Int64>) async throws -> Int
    /// Makes every waiting entry due now (the user asked to sync).
    func makeDue(accountID: Int) async throws
    /// Records the account's user name and the outcome of the last sync step.
    func recordSync(accountID: Int, username: String?, succeededAt: Date?, error: String?) async throws
    /// Removes the rejected entries; returns how many.
    func dismissRejected(accountID: Int) async throws -> Int
    /// The account most recently used (for a session without its account id), if any.
    func lastAccount() async throws -> (id: Int, username: String?)?
}

/// What `AccountStorage.snapshot` reads.
public struct AccountSnapshot: Sendable, Hashable {
    /// TMDB's lists as last pulled (and changed by deliveries since).
    public var lists: [AccountList: [AccountItem]]
    /// The outbox, oldest first.
    public var entries: [PendingEdit]
    /// When the lists were last pulled.
    public var pulledAt: Date?
    /// The account's user name, as last recorded.
    public var username: String?
    /// When something last reached TMDB.
    public var lastSuccessAt: Date?
    /// The last recorded failure.
    public var lastError: String?

    /// Creates a snapshot.
    public init(lists: [AccountList: [AccountItem]] = [:], entries: [PendingEdit] = [], pulledAt: Date? = nil, username: String? = nil, lastSuccessAt: Date? = nil, lastError: String? = nil) {
        self.lists = lists
        self.entries = entries
        self.pulledAt = pulledAt
        self.username = username
        self.lastSuccessAt = lastSuccessAt
        self.lastError = lastError
    }
}

/// What `AccountStorage.outboxSummary` reads: the outbox's counts by state and the bookkeeping.
public struct AccountOutboxSummary: Sendable, Hashable {
    public var pending = 0
    public var delivered = 0
    public var rejected = 0
    public var pulledAt: Date?
    public var username: String?
    public var lastSuccessAt: Date?
    public var lastError: String?

    /// Creates an empty summary.
    public init() {}
}

extension AccountStorage {
    /// The summary counted from a whole snapshot (adapters with a cheaper query override it).
    public func outboxSummary(accountID: Int) async throws -> AccountOutboxSummary {
        let snapshot = try await snapshot(accountID: accountID)
        var summary = AccountOutboxSummary()
        summary.pending = snapshot.entries.count { $0.state == .pending }
        summary.delivered = snapshot.entries.count { $0.state == .delivered }
        summary.rejected = snapshot.entries.count { $0.state == .rejected }
        summary.pulledAt = snapshot.pulledAt
        summary.username = snapshot.username
        summary.lastSuccessAt = snapshot.lastSuccessAt
        summary.lastError = snapshot.lastError
        return summary
    }
}
