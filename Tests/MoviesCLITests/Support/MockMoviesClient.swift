import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Varlink

/// A scripted `MoviesClient`: each call answers with the replies and final error scripted for it,
/// and records what it was asked.
final class MockMoviesClient: MoviesClient {
    /// What one call answers: replies in order, then optionally an error.
    struct Script<Value: Sendable> {
        var replies: [Value]
        var error: ClientError?
    }

    var searchScripts: [Int: Script<SearchReply>] = [:]
    var movieScript = Script<MovieReply>(replies: [], error: .notFound(id: nil))
    /// When set, `movie` answers these ids with a record of that title (others: `movieScript`).
    var cachedTitles: [Int: String] = [:]
    var posterResult: Result<PosterReply, ClientError> = .failure(.other("no poster scripted"))
    var recentResult: Result<RecentQueriesReply, ClientError> = .success(RecentQueriesReply(queries: []))
    var statusResult: Result<StatusReply, ClientError> = .failure(.other("no status scripted"))
    var cacheResult: Result<CacheMaintenanceReply, ClientError> = .success(CacheMaintenanceReply(entries: 0))
    var watchlistsResult: Result<WatchlistsReply, ClientError> = .success(WatchlistsReply(watchlists: []))
    var watchlistResult: Result<WatchlistReply, ClientError> = .success(WatchlistReply(watchlist: Watchlist(name: "films")))
    var deleteResult: Result<EmptyReply, ClientError> = .success(EmptyReply())
    var refreshScript = Script<RefreshReply>(replies: [], error: .other("no refresh scripted"))
    var loginResults: [Result<AccountLoginReply, ClientError>] = []
    var logoutResult: Result<AccountLogoutReply, ClientError> = .success(AccountLogoutReply(pending: 0))
    /// The answer to each account edit, from the edit (default: on TMDB at once).
    var accountEditAnswer: (AccountEdit) -> Result<AccountEditReply, ClientError> = { edit in
        .success(AccountEditReply(AccountEditResult(entry: PendingEdit(id: 1, edit: edit, state: .delivered, createdAt: Date(timeIntervalSince1970: 0)), sync: AccountSyncStatus(activity: .idle, accountID: 22011))))
    }
    var accountResult: Result<AccountReply, ClientError> = .failure(.notSignedIn("nobody is signed in to TMDB"))
    var pendingResult: Result<PendingReply, ClientError> = .failure(.notSignedIn("nobody is signed in to TMDB"))
    /// The answers to successive `sync` calls (the last repeats).
    var syncResults: [Result<SyncReply, ClientError>] = []
    /// Every error, when set, overrides the scripts (e.g. daemon unreachable).
    var failEverything: ClientError?

    private(set) var searches: [SearchParameters] = []
    private(set) var movieCalls: [(id: Int, policy: FetchPolicy?)] = []
    /// The `language` of each `movie` call, in order.
    private(set) var movieLanguages: [String?] = []
    private(set) var posterCalls: [(path: String, width: Int?)] = []
    private(set) var recentLimits: [Int?] = []
    private(set) var savedQueries: [String] = []
    private(set) var cacheCalls: [(CacheOperation, CacheSelection)] = []
    private(set) var addedEdits: [WatchlistEdit] = []
    private(set) var removedEdits: [WatchlistEdit] = []
    private(set) var deletedNames: [String] = []
    private(set) var refreshedNames: [String?] = []
    private(set) var accountEdits: [AccountEdit] = []
    /// The `waitSeconds` of each edit, in order.
    private(set) var accountEditWaits: [Double?] = []
    private(set) var syncWaits: [Double?] = []
    private(set) var loginCalls = 0
    private(set) var dismissedRejected: [Bool] = []

    func search(_ parameters: SearchParameters, onReply: (ClientReply<SearchReply>) -> Void) throws(ClientError) {
        searches.append(parameters)
        if let failEverything { throw failEverything }
        let script = searchScripts[parameters.page] ?? Script(replies: [], error: .other("page \(parameters.page) not scripted"))
        try deliver(script, onReply: onReply)
    }

    func movie(id: Int, language: String?, policy: FetchPolicy?, onReply: (ClientReply<MovieReply>) -> Void) throws(ClientError) {
        movieCalls.append((id, policy))
        movieLanguages.append(language)
        if let failEverything { throw failEverything }
        if let title = cachedTitles[id] {
            var movie = Fixtures.matrix
            movie.id = id
            movie.title = title
            return try deliver(Script(replies: [MovieReply(movie: movie, freshness: Fixtures.cached(age: 60))], error: nil), onReply: onReply)
        }
        try deliver(movieScript, onReply: onReply)
    }

    func poster(path: String, width: Int?) throws(ClientError) -> ClientReply<PosterReply> {
        posterCalls.append((path, width))
        return try single(posterResult)
    }

    func recentQueries(limit: Int?) throws(ClientError) -> ClientReply<RecentQueriesReply> {
        recentLimits.append(limit)
        return try single(recentResult)
    }

    private(set) var clearedRecent = 0

    func saveRecentQuery(_ query: String) throws(ClientError) -> ClientReply<EmptyReply> {
        savedQueries.append(query)
        return try single(.success(EmptyReply()))
    }

    func clearRecentQueries() throws(ClientError) -> ClientReply<ClearRecentQueriesReply> {
        clearedRecent += 1
        return try single(.success(ClearRecentQueriesReply(cleared: 3)))
    }

    func status() throws(ClientError) -> ClientReply<StatusReply> {
        try single(statusResult)
    }

    var metricsResult: Result<MetricsReport, ClientError> = .failure(.other("no metrics scripted"))

    func metrics() throws(ClientError) -> MetricsReport {
        if let failEverything { throw failEverything }
        return try metricsResult.get()
    }

    var catalogueResult: Result<CatalogueUpdateReply, ClientError> = .failure(.other("not scripted"))
    private(set) var catalogueUpdates = 0

    func updateCatalogue() throws(ClientError) -> ClientReply<CatalogueUpdateReply> {
        catalogueUpdates += 1
        return try single(catalogueResult)
    }

    func maintainCache(_ operation: CacheOperation, selection: CacheSelection) throws(ClientError) -> ClientReply<CacheMaintenanceReply> {
        cacheCalls.append((operation, selection))
        return try single(cacheResult)
    }

    /// The `allUsers` of each `watchlists` call, in order.
    private(set) var watchlistsAllUsers: [Bool] = []

    func watchlists(allUsers: Bool) throws(ClientError) -> ClientReply<WatchlistsReply> {
        watchlistsAllUsers.append(allUsers)
        return try single(watchlistsResult)
    }

    /// The user whose watchlists the calls act on since `actingFor(owner:)` (`--owner`), if any.
    private(set) var actingOwner: UInt32?

    func actingFor(owner uid: UInt32) -> any MoviesClient {
        actingOwner = uid
        return self
    }

    func addToWatchlist(_ edit: WatchlistEdit) throws(ClientError) -> ClientReply<WatchlistReply> {
        addedEdits.append(edit)
        return try single(watchlistResult)
    }

    func removeFromWatchlist(_ edit: WatchlistEdit) throws(ClientError) -> ClientReply<WatchlistReply> {
        removedEdits.append(edit)
        return try single(watchlistResult)
    }

    private(set) var refreshedAll: [Bool] = []

    func deleteWatchlist(name: String) throws(ClientError) -> ClientReply<EmptyReply> {
        deletedNames.append(name)
        return try single(deleteResult)
    }

    func refresh(watchlist: String?, all: Bool, onReply: (ClientReply<RefreshReply>) -> Void) throws(ClientError) {
        refreshedNames.append(watchlist)
        refreshedAll.append(all)
        if let failEverything { throw failEverything }
        try deliver(refreshScript, onReply: onReply)
    }

    func accountLogin() throws(ClientError) -> ClientReply<AccountLoginReply> {
        loginCalls += 1
        guard !loginResults.isEmpty else { throw .other("no login scripted") }
        return try single(loginResults.count > 1 ? loginResults.removeFirst() : loginResults[0])
    }

    func accountLogout() throws(ClientError) -> ClientReply<AccountLogoutReply> {
        try single(logoutResult)
    }

    func accountEdit(_ edit: AccountEdit, waitSeconds: Double?) throws(ClientError) -> ClientReply<AccountEditReply> {
        accountEdits.append(edit)
        accountEditWaits.append(waitSeconds)
        return try single(accountEditAnswer(edit))
    }

    func account() throws(ClientError) -> ClientReply<AccountReply> {
        try single(accountResult)
    }

    func pending(dismissRejected: Bool) throws(ClientError) -> ClientReply<PendingReply> {
        dismissedRejected.append(dismissRejected)
        return try single(pendingResult)
    }

    func sync(waitSeconds: Double?) throws(ClientError) -> ClientReply<SyncReply> {
        syncWaits.append(waitSeconds)
        guard !syncResults.isEmpty else { throw .other("no sync scripted") }
        return try single(syncResults.count > 1 ? syncResults.removeFirst() : syncResults[0])
    }

    private func deliver<Value: Encodable & Sendable>(_ script: Script<Value>, onReply: (ClientReply<Value>) -> Void) throws(ClientError) {
        for (index, value) in script.replies.enumerated() {
            let last = index == script.replies.count - 1 && script.error == nil
            onReply(ClientReply(value: value, parameters: Self.parameters(value), continues: !last))
        }
        if let error = script.error { throw error }
    }

    private func single<Value: Encodable & Sendable>(_ result: Result<Value, ClientError>) throws(ClientError) -> ClientReply<Value> {
        if let failEverything { throw failEverything }
        switch result {
        case .success(let value): return ClientReply(value: value, parameters: Self.parameters(value))
        case .failure(let error): throw error
        }
    }

    static func parameters(_ value: some Encodable) -> JSONValue {
        (try? WireCoding.encode(value)) ?? .object([:])
    }

    /// What `--json` prints for a reply of `value`.
    static func json(_ value: some Encodable) -> String {
        String(decoding: parameters(value).serialized(), as: UTF8.self)
    }
}
