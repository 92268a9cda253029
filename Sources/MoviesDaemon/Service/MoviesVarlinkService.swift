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
        /// The catalogue (TMDB's daily ID export); `nil` answers `UpdateCatalogue` with
        /// `MethodNotImplemented` and leaves it out of `Status`.
        public var catalogue: (any CatalogueRepository)?

        /// Creates the dependencies.
        public init(
            searchMovies: SearchMoviesUseCase, fetchMovieDetails: FetchMovieDetailsUseCase,
            fetchPosterImage: FetchPosterImageUseCase, fetchRecentQueries: FetchRecentQueriesUseCase,
            cacheMaintenance: any CacheMaintenanceRepository, remoteStatus: any RemoteStatusRepository,
            watchlists: WatchlistDependencies? = nil, storageHealth: (any StorageHealthRepository)? = nil,
            account: ManageAccountUseCase? = nil, catalogue: (any CatalogueRepository)? = nil
        ) {
            self.catalogue = catalogue
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
        /// Fresh lifetimes and max-stale bounds (`[Cache]`): what a call's plan reads an entry by.
        public var cachePolicy: CachePolicy

        /// Creates settings.
        public init(
            version: String, startedAt: Date, answerDeadlineSeconds: Int, daemonUID: UInt32, authorizedGID: UInt32?,
            events: any EventLog = DiscardingEventLog(),
            remembered: @escaping @Sendable (String) -> ResponseMemory.Remembered? = { _ in nil },
            now: @escaping @Sendable () -> Date = { Date() }, refreshDeadlineSeconds: Int? = nil, defaultLanguage: String? = nil,
            cachePolicy: CachePolicy = CachePolicy()
        ) {
            self.cachePolicy = cachePolicy
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
    /// Counts the answers of the calls' tasks by origin (the daemon's metrics).
    let answerTally = AnswerTally()

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
        #if !MOVIESD_NO_METRICS
        router.add(answerTally)
        #endif
        routes = OwnerRoutes(router: router, authorizer: authorizer)
        routes = registered(routes)
    }

    /// `routes` with every method of the interface registered. Watchlists and accounts belong to
    /// their owners: `owners` says what each method may touch, and the gate hands it
    /// the scope of each call (`OwnerScope`).
    private func registered(_ empty: OwnerRoutes) -> OwnerRoutes {
        var router = empty
        router.on("Search", access: .anyone, owners: .own, answerAtOnce: answerAtOnce(search:)) { call, scope, replies throws(VarlinkError) in
            try await search(call, scope, replies: replies)
        }
        router.on("Movie", access: .anyone, owners: .shared, answerAtOnce: answerAtOnce(movie:)) { call, _, replies throws(VarlinkError) in try await movie(call, replies: replies) }
        router.on("Poster", access: .anyone, owners: .shared, poster)
        router.on("RecentQueries", access: .anyone, owners: .own, recentQueries)
        router.on("SaveRecentQuery", access: .anyone, owners: .own, saveRecentQuery)
        router.on("ClearRecentQueries", access: .anyone, owners: .own, clearRecentQueries)
        router.on("Status", access: .anyone, owners: .visible, status)
        router.on("Invalidate", access: .authorized, owners: .shared, invalidate)
        router.on("Purge", access: .authorized, owners: .shared, purge)
        router.on("UpdateCatalogue", access: .authorized, owners: .shared, deadlineSeconds: 3_600, updateCatalogue)
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

    /// A `Search` call's stage on the event loop (`MemoryAnswers.answerAtOnce`): its parameters read
    /// once, its entry looked up in memory, its plan made, and the plan's immediate part answered
    /// when memory holds the entry; the rest goes on to `search(_:replies:)`.
    private func answerAtOnce(search call: VarlinkCall) -> VarlinkPreparedReply? {
        guard let search = try? SearchCall(call, defaultLanguage: settings.defaultLanguage) else { return nil }
        return answers.answerAtOnce(
            call, parameters: search, key: search.cacheKey, member: "page", policy: search.policy,
            maxStaleSeconds: settings.cachePolicy.maxStale(of: .search), override: search.maxStaleSeconds)
    }

    /// A `Movie` call's stage on the event loop, as `answerAtOnce(search:)`.
    private func answerAtOnce(movie call: VarlinkCall) -> VarlinkPreparedReply? {
        guard let movie = try? MovieCall(call, defaultLanguage: settings.defaultLanguage) else { return nil }
        return answers.answerAtOnce(
            call, parameters: movie, key: movie.cacheKey, member: "movie", policy: movie.policy,
            maxStaleSeconds: settings.cachePolicy.maxStale(of: .movie), override: nil)
    }

    private func search(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let planned = try PlannedCall.of(call) { () throws(VarlinkError) in try SearchCall(call, defaultLanguage: settings.defaultLanguage) }
        let search = planned.parameters
        let useCase = dependencies.searchMovies
        // The query goes into the caller's own history (nobody's without credentials), unless the
        // caller asked not (`remember: false`: a search made while the user types).
        let requester = search.remember ? scope.user : nil
        return try await cachedThenRemote(
            call, replies: replies, planned: planned, policy: search.policy, maxStaleSeconds: search.maxStaleSeconds, member: "page",
            parameter: "query", lookup: { await useCase.lookup(search.request) }
        ) { plan, emit in
            try await useCase.execute(search.request, plan: plan, requester: requester, emit: emit)
        }
    }

    private func movie(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let planned = try PlannedCall.of(call) { () throws(VarlinkError) in try MovieCall(call, defaultLanguage: settings.defaultLanguage) }
        let (id, language) = (planned.parameters.id, planned.parameters.language)
        let useCase = dependencies.fetchMovieDetails
        return try await cachedThenRemote(
            call, replies: replies, planned: planned, policy: planned.parameters.policy, maxStaleSeconds: nil, member: "movie",
            parameter: "id", lookup: { await useCase.lookup(id: id, language: language) }
        ) { plan, emit in
            try await useCase.execute(id: id, language: language, plan: plan, emit: emit)
        }
    }

    /// The task of a cached-then-remote call (`Search`, `Movie`): its plan, made on the event loop
    /// when memory held the entry, else here from one lookup (`lookup`, the database); the plan's
    /// immediate part unless the loop answered it; then the rest (`work`: the use case with the
    /// plan), relayed within the answer deadline, the cached value answering when TMDB fails or is
    /// late and the plan falls back to it. `member`: the value's name in the reply.
    private func cachedThenRemote<Parameters: Sendable, Value: Encodable & Sendable>(
        _ call: VarlinkCall, replies: VarlinkReplyWriter, planned: PlannedCall<Parameters>, policy: FetchPolicy, maxStaleSeconds: Int?,
        member: String, parameter: String, lookup: @Sendable () async -> CacheLookup,
        work: @escaping @Sendable (FetchPlan, @escaping EmitFetched<Value>) async throws -> Void
    ) async throws(VarlinkError) -> [String: JSONValue] {
        var found = planned.lookup
        let plan: FetchPlan
        if let made = planned.plan {
            plan = made
        } else {
            let read = await lookup()
            found = read
            plan = FetchPlan.make(policy: policy, streams: call.more && !call.oneway, entry: read.entry(at: settings.now(), maxStaleSeconds: maxStaleSeconds))
        }
        if plan.answersWithTheReadFailure, case .unreadable(let failure)? = found?.found {
            throw VarlinkError.from(failure, parameter: parameter)
        }
        let cached = found?.answer
        if let immediate = plan.immediate, let cached {
            switch immediate {
            case .final: return answers.parameters(member, cached)
            case .first: if !call.firstReplySent { await replies.send(answers.parameters(member, cached)) }
            }
        }
        var fallback: (@Sendable (String) -> [String: JSONValue])?
        if plan.fallsBackToCache, let cached {
            let answers = answers
            fallback = { reason in answers.parameters(member, cached, remoteError: reason) }
        }
        let lane = Self.lane(of: call)
        return try await relay.relay(
            { emit in try await RateLimitLane.$current.withValue(lane) { try await work(plan, emit) } },
            call: call, replies: replies, parameter: parameter, fallback: fallback
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
            try await RateLimitLane.$current.withValue(lane) { try await useCase.execute(path: path, width: width, emit: emit) }
        }
        return try await relay.relay(work, call: call, replies: replies, parameter: "path") { update in
            WireCoding.parameters(PosterReply(
                mimeType: update.value.mimeType, base64: update.value.bytes.base64EncodedString(),
                width: update.value.size.width ?? 0, freshness: update.freshness))
        }
    }

    /// The rate limiter's lane of a user's call: the caller's uid, interactive (`RateLimitLane`).
    static func lane(of call: VarlinkCall) -> RateLimitLane {
        RateLimitLane(uid: call.peer?.uid, priority: .interactive)
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
            cache = try await dependencies.cacheMaintenance.statistics(pinsOf: scope.pinsSeen)
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
        let catalogue = try? await dependencies.catalogue?.status()
        return WireCoding.parameters(StatusReply(
            version: settings.version, uptimeSeconds: uptime, remote: remote, cache: cache,
            lastRefresh: refresh?.last.map { $0.finishedAt.ISO8601Format() }, refresh: refresh, storage: storage, account: accounts?.own,
            systemAccount: accounts?.system, catalogue: catalogue))
    }

    /// `UpdateCatalogue()`: the newest export downloaded and imported; a failure is
    /// `CatalogueFailed` with its code.
    private func updateCatalogue(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        guard let catalogue = dependencies.catalogue else { throw VarlinkError.methodNotImplemented(call.method) }
        do {
            return WireCoding.parameters(CatalogueUpdateReply(summary: try await catalogue.update()))
        } catch let error as CatalogueError {
            throw VarlinkError(
                name: "\(MoviesInterface.name).CatalogueFailed", parameters: ["code": .string(error.code.rawValue), "reason": .string(error.description)])
        } catch {
            throw VarlinkError(
                name: "\(MoviesInterface.name).CatalogueFailed", parameters: ["code": .string(CatalogueError.Code.storage.rawValue), "reason": .string("\(error)")])
        }
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
