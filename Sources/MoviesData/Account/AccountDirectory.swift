import MoviesDomain

/// Every TMDB account the daemon keeps, one `AccountSync` each: the system's (the admin group's)
/// and each local user's. An account is made on first use, or at the start for the
/// owners that have a session or an outbox; each has its own session, outbox and pulled lists,
/// and its own service loop (`run()`), so one user's outage back-off or refused session never
/// holds another's edits.
public actor AccountDirectory {
    /// Makes the account of an owner (its session store and storage limited to that owner).
    public typealias Factory = @Sendable (Owner) -> AccountSync

    private let make: Factory
    /// The owners with an outbox or pulled lists, read when `run()` starts.
    private let discover: @Sendable () async -> [Owner]
    private var accounts: [Owner: AccountSync] = [:]
    /// Accounts made while `run()` runs, for it to start their loops.
    private let made: AsyncStream<AccountSync>
    private let madeSink: AsyncStream<AccountSync>.Continuation
    private var isRunning = false

    /// Creates the directory; the accounts of `known` are made at once, those `discover` finds
    /// when `run()` starts.
    public init(known: [Owner] = [], discover: @escaping @Sendable () async -> [Owner] = { [] }, make: @escaping Factory) {
        self.make = make
        self.discover = discover
        (made, madeSink) = AsyncStream<AccountSync>.makeStream()
        for owner in known where accounts[owner] == nil { accounts[owner] = make(owner) }
    }

    /// `owner`'s account, made now if it is new.
    public func sync(of owner: Owner) -> AccountSync {
        if let account = accounts[owner] { return account }
        let account = make(owner)
        accounts[owner] = account
        if isRunning { madeSink.yield(account) }
        return account
    }

    /// The accounts made so far, by owner.
    public func known() -> [Owner: AccountSync] { accounts }

    /// Runs every account's service loop (`AccountSync.run()`), those made later too, until cancelled.
    public func run() async {
        for owner in await discover() { _ = sync(of: owner) }
        await withTaskGroup(of: Void.self) { group in
            for account in accounts.values { group.addTask { await account.run() } }
            isRunning = true
            for await account in made { group.addTask { await account.run() } }
            isRunning = false
            group.cancelAll()
        }
    }

    /// Pulls the lists of the accounts of `owners` (every account's when `nil`) that are signed in
    /// (a refresh starts with this, so each account's watchlist is pinned with the rest).
    public func pullNow(owners: Set<Owner>? = nil) async {
        for (owner, account) in accounts where owners?.contains(owner) ?? true {
            await account.pullNow()
        }
    }

    /// The owners whose account has a session (so a pull can bring its lists): a refresh of every
    /// list refreshes their account's watchlist too, even before its first pull.
    func signedInOwners() async -> Set<Owner> {
        var owners = Set<Owner>()
        for (owner, account) in accounts where await account.hasSession() { owners.insert(owner) }
        return owners
    }

    /// Runs a pass of each account whose lists are due for a pull (the refresh scheduler calls this).
    public func runIfDue() async {
        for account in accounts.values { await account.runIfDue() }
    }

    /// Each account's watchlist as its owner's list `AccountPinnedWatchlists.name`, when it has
    /// movies; only the accounts of `owners` when given.
    public func accountWatchlists(of owners: Set<Owner>? = nil) async -> [Watchlist] {
        var lists: [Watchlist] = []
        for (owner, account) in accounts.sorted(by: { $0.key.description < $1.key.description }) where owners?.contains(owner) ?? true {
            let ids = await account.watchlistMovieIDs()
            if !ids.isEmpty { lists.append(Watchlist(name: AccountPinnedWatchlists.name, owner: owner, movieIDs: ids)) }
        }
        return lists
    }
}

extension AccountDirectory: AccountRepositories {
    /// `owner`'s account (`sync(of:)`).
    public func account(of owner: Owner) async -> any AccountRepository { sync(of: owner) }
}
