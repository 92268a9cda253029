import FoundationEssentials
import MoviesData
import MoviesDomain

/// `AccountStorage` in memory, for tests: the same rules as `SQLiteAccountStorage`.
public actor InMemoryAccountStorage: AccountStorage {
    private var entries: [PendingEdit] = []
    private var lists: [Int: [AccountList: [AccountItem]]] = [:]
    private var pulledAt: [Int: Date] = [:]
    private var accounts: [Int: (username: String?, usedAt: Date)] = [:]
    private var owner: [Int64: Int] = [:]
    private var nextID: Int64 = 1

    /// Creates an empty storage.
    public init() {}

    public func enqueue(_ edit: AccountEdit, accountID: Int, at date: Date) -> PendingEdit {
        let plan = OutboxCompaction.plan(for: edit, over: entries.filter { owner[$0.id] == accountID })
        if let converted = plan.convertedToWatchlistRemoval, let index = entries.firstIndex(where: { $0.id == converted }) {
            entries[index].edit = AccountEdit(unchecked: edit.movieID, change: .watchlist(false))
        }
        entries.removeAll { plan.deleted.contains($0.id) }
        let entry = PendingEdit(id: nextID, edit: edit, state: .pending, createdAt: date)
        nextID += 1
        owner[entry.id] = accountID
        entries.append(entry)
        accounts[accountID] = (accounts[accountID]?.username, date)
        return entry
    }

    public func snapshot(accountID: Int) -> AccountSnapshot {
        AccountSnapshot(
            lists: lists[accountID] ?? [:], entries: entries.filter { owner[$0.id] == accountID }, pulledAt: pulledAt[accountID],
            username: accounts[accountID]?.username)
    }

    public func markDelivered(_ id: Int64, edit: AccountEdit, accountID: Int, at date: Date) {
        update(id) { entry in
            guard entry.state == .pending else { return }
            entry.state = .delivered
            entry.attempts += 1
            entry.lastError = nil
            entry.nextAttemptAt = nil
            entry.settledAt = date
        }
        var current = lists[accountID] ?? [:]
        AccountOverlay.apply(edit, to: &current, pending: false, titles: AccountOverlay.knownTitles(in: current))
        lists[accountID] = current
    }

    public func markFailed(_ id: Int64, error: String, nextAttemptAt: Date?) {
        update(id) { entry in
            guard entry.state == .pending else { return }
            entry.attempts += 1
            entry.lastError = error
            entry.nextAttemptAt = nextAttemptAt
        }
    }

    public func reject(_ id: Int64, reason: String, at date: Date) {
        update(id) { entry in
            entry.state = .rejected
            entry.attempts += 1
            entry.lastError = reason
            entry.nextAttemptAt = nil
            entry.settledAt = date
        }
    }

    public func replaceLists(_ new: [AccountList: [AccountItem]], accountID: Int, pulledAt date: Date, expired: Set<Int64>) -> Int {
        lists[accountID] = new
        pulledAt[accountID] = date
        let mine = entries.filter { owner[$0.id] == accountID }
        var settled = Set(AccountOverlay.confirmed(mine, pulled: new))
        for entry in mine where entry.state == .delivered && expired.contains(entry.id) { settled.insert(entry.id) }
        entries.removeAll { settled.contains($0.id) }
        return settled.count
    }

    public func makeDue(accountID: Int) {
        for index in entries.indices where owner[entries[index].id] == accountID && entries[index].state == .pending {
            entries[index].nextAttemptAt = nil
        }
    }

    public func recordSync(accountID: Int, username: String?, succeededAt: Date?, error: String?) {
        accounts[accountID] = (username ?? accounts[accountID]?.username, succeededAt ?? Date())
    }

    public func dismissRejected(accountID: Int) -> Int {
        let before = entries.count
        entries.removeAll { owner[$0.id] == accountID && $0.state == .rejected }
        return before - entries.count
    }

    public func lastAccount() -> (id: Int, username: String?)? {
        accounts.max { $0.value.usedAt < $1.value.usedAt }.map { ($0.key, $0.value.username) }
    }

    private func update(_ id: Int64, _ change: (inout PendingEdit) -> Void) {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
        change(&entries[index])
    }
}
