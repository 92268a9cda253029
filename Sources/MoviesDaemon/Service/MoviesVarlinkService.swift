import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesWire
import Networking
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
        /// The storage's memory of cached entries (`ResponseStorage.remembered(forKey:)`): what
        /// answers a call from memory.
        var remembered: @Sendable (String) -> ResponseMemory.Remembered?
        /// The clock of freshness in replies.
        var now: @Sendable () -> Date
        /// The `language` of a `Search` or `Movie` call that gives none (`[Remote] Language=`);
        /// `nil`: TMDB's default.
        public var defaultLanguage: String?

        /// Creates settings.
        public init(
            version: String, startedAt: Date, answerDeadlineSeconds: Int, daemonUID: UInt32, authorizedGID: UInt32?,
            events: any EventLog = DiscardingEventLog(),
            remembered: @escaping @Sendable (String) -> ResponseMemory.Remembered? = { _ in nil },
            now: @escaping @Sendable () -> Date = { Date() }, refreshDeadlineSeconds: Int? = nil, defaultLanguage: String? = nil
        ) {
            self.refreshDeadlineSeconds = refreshDeadlineSeconds
            self.defaultLanguage = defaultLanguage
            self.events = events
            self.remembered = remembered
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
    /// Replies made from the storage's memory of cached entries.
    let answers: MemoryAnswers
    /// Every method with its access level, what it may touch and its deadline, behind the
    /// parameter and permission checks and the owner gate.
    private(set) var routes: OwnerRoutes
    /// The Varlink router of `routes`.
    var router: VarlinkRouter { routes.router }

    /// Creates the service.
    public init(dependencies: Dependencies, settings: Settings) {
        self.dependencies = dependencies
        self.settings = settings
        self.relay = UpdateRelay(answerDeadlineSeconds: settings.answerDeadlineSeconds)
        self.callLog = CallLog(events: settings.events)
        self.answers = MemoryAnswers(remembered: settings.remembered, now: settings.now)
        let authorizer = CallAuthorizer(daemonUID: settings.daemonUID, authorizedGID: settings.authorizedGID)
        var router = VarlinkRouter(interfaceName: MoviesInterface.name, interfaceDescription: MoviesInterface.description, mayChange: authorizer.mayMutate)
        if callLog.isEnabled { router.add(callLog) }
        routes = OwnerRoutes(router: router, authorizer: authorizer)
        routes = registered(routes)
    }

    /// `routes` with every method of the interface registered. Watchlists and accounts belong to
    /// their owners (issue 31): `owners` says what each method may touch, and the gate hands it
    /// the scope of each call (`OwnerScope`).
    private func registered(_ empty: OwnerRoutes) -> OwnerRoutes {
        var router = empty
        router.on("Search", access: .anyone, owners: .own, answerAtOnce: answerAtOnce(search:)) { call, _, replies throws(VarlinkError) in try await search(call, replies: replies) }
        router.on("Movie", access: .anyone, owners: .shared, answerAtOnce: answerAtOnce(movie:)) { call, _, replies throws(VarlinkError) in try await movie(call, replies: replies) }
        router.on("Poster", access: .anyone, owners: .shared, poster)
        router.on("RecentQueries", access: .anyone, owners: .own, recentQueries)
        router.on("SaveRecentQuery", access: .anyone, owners: .own, saveRecentQuery)
        router.on("ClearRecentQueries", access: .anyone, owners: .own, clearRecentQueries)
        router.on("Status", access: .anyone, owners: .visible, status)
        router.on("Invalidate", access: .authorized, owners: .shared, invalidate)
        router.on("Purge", access: .authorized, owners: .shared, purge)
        router.on("Watchlists", access: .anyone, owners: .visible, watchlists)
        router.on("AddToWatchlist", access: .anyone, owners: .managed, addToWatchlist)
        router.on("RemoveFromWatchlist", access: .anyone, owners: .managed, removeFromWatchlist)
        router.on("DeleteWatchlist", access: .anyone, owners: .managed, deleteWatchlist)
        // Refresh streams progress for as long as the refresh takes: its own deadline.
        router.on("Refresh", access: .anyone, owners: .managed, deadlineSeconds: settings.refreshDeadlineSeconds, refresh)
        router.on("AccountLogin", access: .anyone, owners: .managed, accountLogin)
        router.on("AccountLogout", access: .anyone, owners: .managed, accountLogout)
        router.on("AccountEdit", access: .anyone, owners: .managed, accountEdit)
        router.on("Account", access: .anyone, owners: .managed, account)
        router.on("Pending", access: .anyone, owners: .managed, pending)
        // Sync may wait as long as it is asked to (at most an hour): its own deadline.
        router.on("Sync", access: .anyone, owners: .managed, deadlineSeconds: Int(ManageAccountUseCase.maxSyncWaitSeconds) + 60, sync)
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

    /// Whether the interface file declares the method (the server answers `MethodNotFound` at once
    /// when it does not).
    public func declares(method name: String) -> Bool {
        router.declares(method: name)
    }

    /// A cached search page from memory, as a prepared reply (`MemoryAnswers`): the final reply
    /// or the first of a `more` call's, as `ImmediateAnswer` allows; `nil` otherwise, and the call
    /// runs `search(_:replies:)`. On the event loop: a lookup and a splice, nothing more.
    private func answerAtOnce(search call: VarlinkCall) -> VarlinkPreparedReply? {
        guard let search = try? SearchCall(call, defaultLanguage: settings.defaultLanguage) else { return nil }
        return answers.reply(forKey: search.cacheKey, member: "page", policy: search.policy, call: call)
    }

    /// A movie's cached details from memory, as `answerAtOnce(search:)`.
    private func answerAtOnce(movie call: VarlinkCall) -> VarlinkPreparedReply? {
        guard let movie = try? MovieCall(call, defaultLanguage: settings.defaultLanguage) else { return nil }
        return answers.reply(forKey: movie.cacheKey, member: "movie", policy: movie.policy, call: call)
    }

    private func search(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let search = try SearchCall(call, defaultLanguage: settings.defaultLanguage)
        let (request, policy, maxStale) = (search.request, search.policy, search.maxStaleSeconds)
        let useCase = dependencies.searchMovies
        // The query goes into the caller's own history (nobody's without credentials), unless the
        // caller asked not (`remember: false`: a search made while the user types).
        let requester = search.remember ? call.peer.map { LocalUser(uid: $0.uid) } : nil
        return try await cachedThenRemote(
            call, replies: replies, key: search.cacheKey, member: "page", policy: policy, parameter: "query",
            cached: { await useCase.cachedAnswer(request) }
        ) { loaderPolicy, emit in
            try await useCase.execute(request, policy: loaderPolicy, maxStaleSeconds: maxStale, requester: requester, emit: emit)
        }
    }

    private func movie(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let movie = try MovieCall(call, defaultLanguage: settings.defaultLanguage)
        let (id, language) = (movie.id, movie.language)
        let useCase = dependencies.fetchMovieDetails
        return try await cachedThenRemote(
            call, replies: replies, key: movie.cacheKey, member: "movie", policy: movie.policy, parameter: "id",
            cached: { await useCase.cachedAnswer(id: id, language: language) }
        ) { loaderPolicy, emit in
            try await useCase.execute(id: id, language: language, policy: loaderPolicy, emit: emit)
        }
    }

    /// The cached entry under `key` in the reply's shape: from memory, else read (`cached`).
    private func answer(forKey key: String, cached: @Sendable () async -> CachedAnswer?) async -> CachedAnswer? {
        if let known = answers.answer(forKey: key) { return known }
        return await cached()
    }

    /// The one pipeline of a cached-then-remote call (`Search`, `Movie`) once it runs in a task:
    /// the cached entry's reply when `ImmediateAnswer` allows one (unless the event loop already
    /// sent it from memory), then the loader for TMDB's answer, relayed within the answer deadline.
    /// - Parameters:
    ///   - key: the entry's cache key; `member`: the value's name in the reply.
    ///   - cached: the cached entry in the reply's shape, read when memory does not hold it.
    ///   - work: runs the use case with the loader's policy, emitting its updates.
    private func cachedThenRemote<Value: Encodable & Sendable>(
        _ call: VarlinkCall, replies: VarlinkReplyWriter, key: String, member: String, policy: FetchPolicy, parameter: String,
        cached: @Sendable () async -> CachedAnswer?,
        work: @escaping @Sendable (FetchPolicy, @escaping EmitFetched<Value>) async throws -> Void
    ) async throws(VarlinkError) -> [String: JSONValue] {
        let streams = call.more && !call.oneway
        // The cached entry the first reply was made of, when one went out already (from memory, on
        // the event loop) or goes out here.
        var sentAnswer: CachedAnswer?
        if call.firstReplySent {
            // Gone only if the entry was purged since, and then there is nothing to fall back on.
            sentAnswer = await answer(forKey: key, cached: cached)
        } else if ImmediateAnswer.mayExist(policy: policy, streams: streams),
                  let answer = await answer(forKey: key, cached: cached) {
            switch ImmediateAnswer.of(policy: policy, streams: streams, stale: answer.isStale(at: settings.now())) {
            case .final?: return answers.parameters(member, answer)
            case .first?:
                await replies.send(answers.parameters(member, answer))
                sentAnswer = answer
            case nil: break
            }
        }
        // The cached entry went out: what is left is TMDB's answer, one round trip and one write
        // (the loader does not read the entry again); should TMDB fail or be late, the call ends
        // with that entry and the reason.
        var fallback: (@Sendable (String) -> [String: JSONValue])?
        if let sentAnswer {
            let answers = answers
            fallback = { reason in answers.parameters(member, sentAnswer, remoteError: reason) }
        }
        let loaderPolicy: FetchPolicy = call.firstReplySent || fallback != nil ? .networkOnly : policy
        // Who asks is decided by the caller's policy, not the loader's: `--fresh` (network_only) is
        // an explicit command and tries TMDB at once; the others are users who may get the cache.
        let demand = Self.demand(of: policy)
        let lane = Self.lane(of: call)
        return try await relay.relay(
            { emit in
                try await RemoteDemand.$current.withValue(demand) {
                    try await RateLimitLane.$current.withValue(lane) { try await work(loaderPolicy, emit) }
                }
            },
            call: call, replies: replies, policy: policy, parameter: parameter, fallback: fallback
        ) { update in
            MemoryAnswers.parameters(member, update)
        }
    }

    private func poster(_ call: VarlinkCall, _: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let reader = ParameterReader(call)
        let path = try reader.requiredString("path")
        let width = try reader.optionalInt("width")
        if let width, width <= 0 {
            throw MoviesError.invalidArgument("width must be positive, got \(width)").varlinkError(parameter: "width")
        }
        let useCase = dependencies.fetchPosterImage
        let lane = Self.lane(of: call)
        let work: @Sendable (@escaping EmitFetched<PosterImage>) async throws -> Void = { emit in
            try await RemoteDemand.$current.withValue(.interactive) {
                try await RateLimitLane.$current.withValue(lane) { try await useCase.execute(path: path, width: width, emit: emit) }
            }
        }
        return try await relay.relay(work, call: call, replies: replies, policy: .cacheFirst, parameter: "path") { update in
            WireCoding.parameters(PosterReply(
                mimeType: update.value.mimeType, base64: update.value.bytes.base64EncodedString(),
                width: update.value.size.width ?? 0, freshness: update.freshness))
        }
    }

    /// The rate limiter's lane of a user's call: the caller's uid, interactive (`RateLimitLane`).
    static func lane(of call: VarlinkCall) -> RateLimitLane {
        RateLimitLane(uid: call.peer?.uid, priority: .interactive)
    }

    /// Who asks TMDB for a call with `policy`: `network_only` is an explicit command (`--fresh`),
    /// the rest are users whom the cache may answer.
    static func demand(of policy: FetchPolicy) -> RemoteDemand {
        policy == .networkOnly ? .explicit : .interactive
    }


    /// `RecentQueries`: the caller's own recent searches (none for a caller without credentials).
    private func recentQueries(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let limit = try ParameterReader(call).optionalInt("limit") ?? FetchRecentQueriesUseCase.defaultMaxCount
        do {
            let queries = try await dependencies.fetchRecentQueries.execute(in: scope, maxCount: limit)
            return WireCoding.parameters(RecentQueriesReply(queries: queries.map(\.query)))
        } catch {
            throw VarlinkError.from(error)
        }
    }

    /// `SaveRecentQuery`: saves a query the caller committed to as their own newest recent search.
    private func saveRecentQuery(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let text = try ParameterReader(call).requiredString("query")
        guard let query = MovieQuery(text) else {
            throw MoviesError.invalidArgument("query must not be empty").varlinkError(parameter: "query")
        }
        do {
            try await dependencies.fetchRecentQueries.save(query, in: scope)
            return [:]
        } catch {
            throw VarlinkError.from(error)
        }
    }

    /// `ClearRecentQueries`: forgets the caller's own recent searches, nobody else's.
    private func clearRecentQueries(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        do {
            return ["cleared": .int(Int64(try await dependencies.fetchRecentQueries.clear(in: scope)))]
        } catch {
            throw VarlinkError.from(error)
        }
    }

    private func status(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
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
        let refresh = await dependencies.watchlists?.refreshStatus(scope)
        // The account is personal: the caller's own, and the system's for administrators.
        let accounts = await dependencies.account?.statuses(in: scope)
        return WireCoding.parameters(StatusReply(
            version: settings.version, uptimeSeconds: uptime, remote: remote, cache: cache,
            lastRefresh: refresh?.last.map { $0.finishedAt.ISO8601Format() }, refresh: refresh, storage: storage, account: accounts?.own,
            systemAccount: accounts?.system))
    }

    private func invalidate(_ call: VarlinkCall, _: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        try await maintain(call, purge: false)
    }

    private func purge(_ call: VarlinkCall, _: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        try await maintain(call, purge: true)
    }

    private func maintain(_ call: VarlinkCall, purge: Bool) async throws(VarlinkError) -> [String: JSONValue] {
        let reader = ParameterReader(call)
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
