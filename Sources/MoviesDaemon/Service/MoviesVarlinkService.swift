import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesWire
import Varlink

/// The `io.moviesd.Movies` Varlink interface: maps each call to a use case (the daemon's
/// presentation layer, like a ViewModel for a socket) and each domain error to a Varlink error.
public struct MoviesVarlinkService: VarlinkInterfaceHandler {
    /// What the service needs from the rest of the daemon.
    public struct Dependencies: Sendable {
        public var searchMovies: SearchMoviesUseCase
        public var fetchMovieDetails: FetchMovieDetailsUseCase
        public var fetchPosterImage: FetchPosterImageUseCase
        public var fetchRecentQueries: FetchRecentQueriesUseCase
        public var cacheMaintenance: any CacheMaintenanceRepository
        public var remoteStatus: any RemoteStatusRepository
        /// The local database's health for `Status` (`ok` always when `nil`).
        public var storageHealth: (any StorageHealthRepository)?
        /// Watchlists and refresh; `nil` answers those methods with `MethodNotImplemented`.
        public var watchlists: WatchlistDependencies?
        /// The TMDB account; `nil` (no TMDB credential) answers its methods with `NotSignedIn`.
        public var account: ManageAccountUseCase?

        /// Creates the dependencies.
        public init(
            searchMovies: SearchMoviesUseCase, fetchMovieDetails: FetchMovieDetailsUseCase,
            fetchPosterImage: FetchPosterImageUseCase, fetchRecentQueries: FetchRecentQueriesUseCase,
            cacheMaintenance: any CacheMaintenanceRepository, remoteStatus: any RemoteStatusRepository,
            watchlists: WatchlistDependencies? = nil, storageHealth: (any StorageHealthRepository)? = nil,
            account: ManageAccountUseCase? = nil
        ) {
            self.account = account
            self.storageHealth = storageHealth
            self.watchlists = watchlists
            self.searchMovies = searchMovies
            self.fetchMovieDetails = fetchMovieDetails
            self.fetchPosterImage = fetchPosterImage
            self.fetchRecentQueries = fetchRecentQueries
            self.cacheMaintenance = cacheMaintenance
            self.remoteStatus = remoteStatus
        }
    }

    /// Service settings.
    public struct Settings: Sendable {
        public var version: String
        public var startedAt: Date
        public var answerDeadlineSeconds: Int
        /// `Refresh`'s call deadline (`[Refresh] DeadlineSec=`), else the server's.
        public var refreshDeadlineSeconds: Int?
        public var daemonUID: UInt32
        public var authorizedGID: UInt32?
        /// Where `--log-level debug` writes one line per call.
        public var events: any EventLog
        /// The memory for cached answers (`[Cache] MemoryMaxBytes=`).
        public var answerMemoryBytes: Int
        /// The cache's change counter and access bookkeeping, for the answers held in memory.
        var answerSource: HotAnswers.Source
        /// The clock of freshness in replies.
        var now: @Sendable () -> Date
        /// The `language` of a `Search` or `Movie` call that gives none (`[Remote] Language=`);
        /// `nil`: TMDB's default.
        public var defaultLanguage: String?

        /// Creates settings.
        public init(
            version: String, startedAt: Date, answerDeadlineSeconds: Int, daemonUID: UInt32, authorizedGID: UInt32?,
            events: any EventLog = DiscardingEventLog(), answerMemoryBytes: Int = 128 << 20,
            changeCount: @escaping @Sendable () -> UInt64 = { 0 }, recordAccess: @escaping @Sendable (String) -> Void = { _ in },
            now: @escaping @Sendable () -> Date = { Date() }, refreshDeadlineSeconds: Int? = nil, defaultLanguage: String? = nil
        ) {
            self.refreshDeadlineSeconds = refreshDeadlineSeconds
            self.defaultLanguage = defaultLanguage
            self.events = events
            self.answerMemoryBytes = answerMemoryBytes
            self.answerSource = HotAnswers.Source(changeCount: changeCount, recordAccess: recordAccess)
            self.now = now
            self.version = version
            self.startedAt = startedAt
            self.answerDeadlineSeconds = answerDeadlineSeconds
            self.daemonUID = daemonUID
            self.authorizedGID = authorizedGID
        }
    }

    public var interfaceName: String { router.interfaceName }
    public var interfaceDescription: String { router.interfaceDescription }

    let dependencies: Dependencies
    private let settings: Settings
    private let relay: UpdateRelay
    private let callLog: CallLog
    /// Cached search pages in the interface's shape: the one memory in front of the cache.
    let answers: HotAnswers
    /// Who may change things (and see the account).
    private let authorizer: CallAuthorizer
    /// Every method with its access level and deadline, behind the parameter and permission checks.
    private(set) var router: VarlinkRouter

    /// Creates the service.
    public init(dependencies: Dependencies, settings: Settings) {
        self.dependencies = dependencies
        self.settings = settings
        self.relay = UpdateRelay(answerDeadlineSeconds: settings.answerDeadlineSeconds)
        self.callLog = CallLog(events: settings.events)
        self.answers = HotAnswers(byteBudget: settings.answerMemoryBytes, source: settings.answerSource, now: settings.now)
        let authorizer = CallAuthorizer(daemonUID: settings.daemonUID, authorizedGID: settings.authorizedGID)
        self.authorizer = authorizer
        router = VarlinkRouter(interfaceName: MoviesInterface.name, interfaceDescription: MoviesInterface.description, mayChange: authorizer.mayMutate)
        router = routes(router)
    }

    /// `router` with every method of the interface registered, and the call log when it is on.
    private func routes(_ empty: VarlinkRouter) -> VarlinkRouter {
        var router = empty
        if callLog.isEnabled { router.add(callLog) }
        router.on("Search", access: .anyone, answerAtOnce: answerAtOnce(search:), search)
        router.on("Movie", access: .anyone, movie)
        router.on("Poster", access: .anyone, poster)
        router.on("RecentQueries", access: .anyone, recentQueries)
        router.on("ClearRecentQueries", access: .anyone, clearRecentQueries)
        router.on("Status", access: .anyone, status)
        router.on("Invalidate", access: .authorized, invalidate)
        router.on("Purge", access: .authorized, purge)
        router.on("Watchlists", access: .anyone, watchlists)
        router.on("AddToWatchlist", access: .authorized, addToWatchlist)
        router.on("RemoveFromWatchlist", access: .authorized, removeFromWatchlist)
        router.on("DeleteWatchlist", access: .authorized, deleteWatchlist)
        // Refresh streams progress for as long as the refresh takes: its own deadline.
        router.on("Refresh", access: .authorized, deadlineSeconds: settings.refreshDeadlineSeconds, refresh)
        // The account: personal data, so authorised callers only, reading too.
        router.on("AccountLogin", access: .authorized, accountLogin)
        router.on("AccountLogout", access: .authorized, accountLogout)
        router.on("AccountEdit", access: .authorized, accountEdit)
        router.on("Account", access: .authorized, account)
        router.on("Pending", access: .authorized, pending)
        // Sync may wait as long as it is asked to (at most an hour): its own deadline.
        router.on("Sync", access: .authorized, deadlineSeconds: Int(ManageAccountUseCase.maxSyncWaitSeconds) + 60, sync)
        return router
    }

    /// Runs one call through the router.
    public func handle(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        try await router.handle(call, replies: replies)
    }

    /// The reply from memory, for the methods registered with one (see `answerAtOnce(search:)`).
    public func answerAtOnce(_ call: VarlinkCall) -> VarlinkPreparedReply? {
        router.answerAtOnce(call)
    }

    /// The method's own deadline (`Refresh`'s), else the server's.
    public func deadlineSeconds(forMethod name: String) -> Int? {
        router.deadlineSeconds(forMethod: name)
    }

    /// A cached search page from memory, as a prepared reply (no task, no storage read, no
    /// encoding of the page): the final reply under `cache_first` (fresh) and `cache_only`, the
    /// first of a `more` call's replies under the default policy (fresh); `nil` otherwise, and
    /// the call runs `search(_:replies:)`. On the event loop: a lookup and a splice, nothing more.
    private func answerAtOnce(search call: VarlinkCall) -> VarlinkPreparedReply? {
        guard let search = try? SearchCall(call, defaultLanguage: settings.defaultLanguage) else { return nil }
        let date = settings.now()
        let continues = search.policy == .cacheThenNetwork
        guard search.policy != .networkOnly, search.policy != .localOnly, !continues || call.more,
              let (reply, answer) = answers.reply(forKey: search.cacheKey, at: date, continues: continues) else { return nil }
        // Under cache_only any cached page is the answer; otherwise only a fresh one.
        guard search.policy == .cacheOnly || !answer.isStale(at: date) else { return nil }
        if callLog.isEnabled { callLog.record(call, outcome: "origin=cache (memory)", since: .now) }
        return reply
    }

    /// The cached page for `search` in the interface's shape: from memory, else read from the
    /// cache (without decoding) and remembered.
    private func cachedAnswer(_ search: SearchCall) async -> CachedAnswer? {
        let changeCount = answers.changeCount
        if let known = answers.answer(forKey: search.cacheKey) { return known }
        guard let read = await dependencies.searchMovies.cachedAnswer(search.request) else { return nil }
        answers.remember(read, forKey: search.cacheKey, readAt: changeCount)
        return read
    }

    private func search(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let search = try SearchCall(call, defaultLanguage: settings.defaultLanguage)
        let (request, policy) = (search.request, search.policy)
        // The page the first reply was made of, when one went out already (from memory, on the
        // event loop) or goes out here.
        var sentPage: CachedAnswer?
        if call.firstReplySent {
            // From memory, else as stored (a write may have moved the counter meanwhile); gone
            // only if the entry was purged since, and then there is nothing to fall back on.
            sentPage = await cachedAnswer(search)
        } else {
            // Only where a cached page can be the answer, or the first reply: otherwise the loader reads it.
            let cachedPageServes = switch policy {
            case .cacheOnly, .cacheFirst: true
            case .cacheThenNetwork: call.more && !call.oneway
            case .networkOnly, .localOnly: false
            }
            if cachedPageServes, let answer = await cachedAnswer(search) {
                let fresh = !answer.isStale(at: settings.now())
                switch policy {
                case .cacheOnly: return answers.parameters(answer)
                case .cacheFirst where fresh: return answers.parameters(answer)
                case .cacheThenNetwork where fresh:
                    await replies.send(answers.parameters(answer))
                    sentPage = answer
                default: break
                }
            }
        }
        // The cached page went out: what is left is TMDB's answer, one round trip and one write
        // (the loader does not read the page again); should TMDB fail or be late, the call ends
        // with that page and the reason.
        var fallback: (@Sendable (String) -> [String: JSONValue])?
        if let sentPage {
            let answers = answers
            fallback = { reason in answers.parameters(sentPage, remoteError: reason) }
        }
        let useCase = dependencies.searchMovies
        let maxStale = search.maxStaleSeconds
        // The query goes into the caller's own history (nobody's without credentials).
        let requester = call.peer.map { LocalUser(uid: $0.uid) }
        let loaderPolicy: FetchPolicy = call.firstReplySent || fallback != nil ? .networkOnly : policy
        // Who asks is decided by the caller's policy, not the loader's: `--fresh` (network_only) is
        // an explicit command and tries TMDB at once; the others are users who may get the cache.
        let demand = Self.demand(of: policy)
        let final = try await relay.relay(
            { emit in
                try await RemoteDemand.$current.withValue(demand) {
                    try await useCase.execute(request, policy: loaderPolicy, maxStaleSeconds: maxStale, requester: requester, emit: emit)
                }
            }, call: call,
            replies: replies, policy: policy, parameter: "query", fallback: fallback
        ) { update in
            WireCoding.parameters(SearchReply(page: update.value, freshness: update.freshness))
        }
        // TMDB's answer was stored, which emptied the memory: remember the page as now stored, so
        // the next call's first reply comes from memory again.
        if policy != .cacheOnly, policy != .localOnly { _ = await cachedAnswer(search) }
        return final
    }

    private func movie(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let reader = ParameterReader(call.parameters)
        let id = try reader.requiredInt("id")
        let language = try reader.optionalString("language") ?? settings.defaultLanguage
        do {
            try SearchRequest.checkLanguage(language)
        } catch {
            throw error.varlinkError(parameter: "language")
        }
        let policy = try reader.policy()
        let useCase = dependencies.fetchMovieDetails
        let demand = Self.demand(of: policy)
        let work: @Sendable (@escaping EmitFetched<MovieDetails>) async throws -> Void = { emit in
            try await RemoteDemand.$current.withValue(demand) { try await useCase.execute(id: id, language: language, policy: policy, emit: emit) }
        }
        return try await relay.relay(work, call: call, replies: replies, policy: policy, parameter: "id") { update in
            WireCoding.parameters(MovieReply(movie: update.value, freshness: update.freshness))
        }
    }

    private func poster(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let reader = ParameterReader(call.parameters)
        let path = try reader.requiredString("path")
        let width = try reader.optionalInt("width")
        if let width, width <= 0 {
            throw MoviesError.invalidArgument("width must be positive, got \(width)").varlinkError(parameter: "width")
        }
        let useCase = dependencies.fetchPosterImage
        let work: @Sendable (@escaping EmitFetched<PosterImage>) async throws -> Void = { emit in
            try await RemoteDemand.$current.withValue(.interactive) { try await useCase.execute(path: path, width: width, emit: emit) }
        }
        return try await relay.relay(work, call: call, replies: replies, policy: .cacheFirst, parameter: "path") { update in
            WireCoding.parameters(PosterReply(
                mimeType: update.value.mimeType, base64: update.value.bytes.base64EncodedString(),
                width: update.value.size.width ?? 0, freshness: update.freshness))
        }
    }

    /// Who asks TMDB for a call with `policy`: `network_only` is an explicit command (`--fresh`),
    /// the rest are users whom the cache may answer.
    static func demand(of policy: FetchPolicy) -> RemoteDemand {
        policy == .networkOnly ? .explicit : .interactive
    }


    /// `RecentQueries`: the caller's own recent searches (none for a caller without credentials).
    private func recentQueries(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let reader = ParameterReader(call.parameters)
        let limit = try reader.optionalInt("limit") ?? FetchRecentQueriesUseCase.defaultMaxCount
        guard let peer = call.peer else { return WireCoding.parameters(RecentQueriesReply(queries: [])) }
        do {
            let queries = try await dependencies.fetchRecentQueries.execute(for: LocalUser(uid: peer.uid), maxCount: limit)
            return WireCoding.parameters(RecentQueriesReply(queries: queries.map(\.query)))
        } catch {
            throw VarlinkError.from(error)
        }
    }

    /// `ClearRecentQueries`: forgets the caller's own recent searches, nobody else's.
    private func clearRecentQueries(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        guard let peer = call.peer else { return ["cleared": .int(0)] }
        do {
            return ["cleared": .int(Int64(try await dependencies.fetchRecentQueries.clear(for: LocalUser(uid: peer.uid))))]
        } catch {
            throw VarlinkError.from(error)
        }
    }

    private func status(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let remote = await dependencies.remoteStatus.remoteStatus()
        var cache: CacheStats
        do {
            cache = try await dependencies.cacheMaintenance.statistics()
        } catch {
            // Status is how an operator diagnoses a damaged database: it answers anyway, with zero
            // counts, and `storage` says what is wrong (the failure was recorded there).
            cache = CacheStats(entries: 0, bytes: 0, staleEntries: 0, pinnedEntries: 0, byteBudget: 0)
        }
        let storage = dependencies.storageHealth?.storageHealth() ?? .ok
        let uptime = max(0, Int(Date().timeIntervalSince(settings.startedAt)))
        let refresh = await dependencies.watchlists?.refreshStatus()
        // The account is personal: its section only for callers who may use the account methods.
        let account = authorizer.mayMutate(call.peer) ? try? await dependencies.account?.status() : nil
        return WireCoding.parameters(StatusReply(
            version: settings.version, uptimeSeconds: uptime, remote: remote, cache: cache,
            lastRefresh: refresh?.last.map { $0.finishedAt.ISO8601Format() }, refresh: refresh, storage: storage, account: account))
    }

    private func invalidate(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        try await maintain(call, purge: false)
    }

    private func purge(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        try await maintain(call, purge: true)
    }

    private func maintain(_ call: VarlinkCall, purge: Bool) async throws(VarlinkError) -> [String: JSONValue] {
        let reader = ParameterReader(call.parameters)
        var scopes: [CacheScope] = []
        if let text = try reader.optionalString("query") {
            guard let query = MovieQuery(text) else {
                throw MoviesError.invalidArgument("query must not be empty").varlinkError(parameter: "query")
            }
            scopes.append(.search(query))
        }
        if let id = try reader.optionalInt("movieId") { scopes.append(.movie(id: id)) }
        if try reader.optionalBool("posters") == true { scopes.append(.posters) }
        if try reader.optionalBool("all") == true || scopes.isEmpty { scopes = [.all] }
        var entries = 0
        var pinned = 0
        do {
            for scope in scopes {
                if purge {
                    let purged = try await dependencies.cacheMaintenance.purge(scope)
                    entries += purged.entries
                    pinned += purged.pinned
                } else {
                    entries += try await dependencies.cacheMaintenance.invalidate(scope)
                }
            }
        } catch {
            throw VarlinkError.from(error)
        }
        return WireCoding.parameters(CacheMaintenanceReply(entries: entries, pinned: purge ? pinned : nil))
    }
}
