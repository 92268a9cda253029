import Foundation
import MoviesData
import MoviesDomain
import Networking
import SQLiteStore
import SystemSupport
import Varlink

/// The composition root (as the iOS sample's AppDIContainer): builds storage, remote, repositories,
/// use cases and the Varlink service from the configuration. Nothing else constructs adapters.
public final class AppDIContainer: Sendable {
    /// The cache database (responses and posters).
    public let store: SQLiteStore
    /// The state database (watchlists and recent queries).
    public let stateStore: SQLiteStore
    /// TMDB's health, shared by every repository and reported by `Status`.
    public let health: RemoteHealth
    let responseStorage: SQLiteResponseStorage
    /// Indexes the search pages and movie details stored; `run()` by the daemon.
    public let indexUpkeep: MovieIndexUpkeep
    let recentQueriesStorage: SQLiteRecentQueriesStorage
    /// Watchlist refreshes on demand.
    public let refresher: WatchlistRefresher
    /// Refresh-ahead of watchlist entries; `nil` when `[Refresh] Enabled=no`.
    public let scheduler: RefreshScheduler?
    /// TMDB's change feed (`nil` with `[Refresh] ChangeFeed=no`).
    public let changeFeed: ChangeFeedSync?
    /// Two-way sync with every owner's TMDB account (the system's and each user's); `nil` without
    /// a TMDB credential. `run()` by the daemon.
    public let accounts: AccountDirectory?
    /// Decides when an offline TMDB is back; `run()` by the daemon for its lifetime.
    public let probe: RemoteProbe
    /// Where the data layer's events go (the daemon's journal).
    let events: any EventLog
    /// The databases' health, from every storage operation's outcome; reported by `Status`.
    public let storageHealth: StorageHealthMonitor
    let remote: any MoviesRemote
    /// TMDB's requests as counted by both remotes (the cache's and the account's).
    let requestMetrics: RequestMetrics
    /// The edits every account's outbox delivered or had refused.
    let outboxMetrics = OutboxMetrics()
    /// TMDB's daily ID export, searched offline (`catalogue.sqlite3` beside the cache); `nil` when
    /// it could not be opened (said in the journal).
    public let catalogue: SQLiteCatalogue?
    /// Imports the export (`movies catalogue update`, and the refresh timer when due).
    public let catalogueUpdater: CatalogueUpdater?
    let cachePolicy: CachePolicy
    let configuration: DaemonConfiguration

    /// Opens the databases at `paths.statePath` and `paths.databasePath` (see `openDatabases`) and wires everything; the data layer reports its
    /// events (remote offline/online, rate limits, refreshes, evictions) to `events`.
    public init(
        configuration: DaemonConfiguration, paths: DaemonPaths, credential: LoadedCredential,
        events: any EventLog = DiscardingEventLog(), environment: [String: String] = [:]
    ) throws(StartupError) {
        self.configuration = configuration
        self.events = events
        storageHealth = StorageHealthMonitor(events: events)
        let databases = try AppDIContainer.openDatabases(paths: paths, configuration: configuration, events: events)
        store = databases.cache
        stateStore = databases.state
        databases.cache.reportHealth(to: storageHealth, as: .cache)
        databases.state.reportHealth(to: storageHealth, as: .state)
        indexUpkeep = MovieIndexUpkeep(store: databases.cache, report: { [storageHealth] outcome in
            switch outcome {
            case .success: storageHealth.recordSuccess()
            case .failure(let error): _ = storageHealth.recordFailure(error, during: "updating the local search index")
            }
        })
        // The one memory of cached entries ([Cache] MemoryMaxBytes=): filled by reads, kept in step
        // with every write by the cache database itself, read by the service to answer from memory.
        // Sharded by key (16 per event loop, each of at least 1 MiB), so the loops answering from
        // memory rarely meet on a lock.
        let memoryBytes = Int(clamping: configuration.cache.memoryMaxBytes)
        let memory = ResponseMemory(
            byteBudget: memoryBytes, shards: max(1, min(16 * configuration.daemon.eventLoopCount, memoryBytes >> 20)),
            externalRevision: { [store] in store.externalWriteCount })
        responseStorage = SQLiteResponseStorage(store: store, indexUpkeep: indexUpkeep, memory: memory)
        recentQueriesStorage = SQLiteRecentQueriesStorage(store: stateStore)
        // A remote call still running at the answer deadline marks TMDB offline at once, so later
        // calls answer from the cache instead of joining it.
        let answerDeadline = configuration.daemon.answerDeadlineSeconds
        health = RemoteHealth(
            configuration: RemoteHealth.Configuration(slowCallSeconds: answerDeadline > 0 ? Double(answerDeadline) : nil),
            credential: credential == .none ? .missing : .configured,
            events: events)
        if credential == .none {
            events.record(DataEvent(.notice, "remote.no-credential", "no TMDB credential configured: answering from the cache only, without asking TMDB; to use TMDB, \(UnconfiguredRemote.remedy)"))
        }
        cachePolicy = configuration.cache.cachePolicy
        let requestMetrics = RequestMetrics()
        self.requestMetrics = requestMetrics
        let remotes = try AppDIContainer.makeRemote(configuration.remote, credential: credential, metrics: requestMetrics)
        remote = remotes.movies
        // An edit waits for TMDB only while it answers: a write unanswered after a second is TMDB
        // not answering, and the edit says "pending" (an edit returns at once).
        var accountSettings = AccountSync.Settings(pullIntervalSeconds: Double(configuration.refresh.accountPullIntervalSeconds))
        accountSettings.notAnsweringAfterSeconds = 1
        accountSettings.metrics = outboxMetrics
        // One account per owner: the system's (the admin group's, with LoadCredential=tmdb-session)
        // and each local user's, each with its own session file and its own rows of the state
        // database. The accounts with a session or an outbox are made at the start, so their
        // edits are sent without waiting for their users to call.
        let signedIn: [LocalUser]
        do {
            signedIn = try FileAccountSessionStore.signedInUsers(statePath: paths.statePath)
        } catch {
            throw StartupError("moviesd: " + error.message, exitCode: StartupError.permissionExitCode)
        }
        let knownOwners = [Owner.system] + signedIn.map(Owner.user)
        accounts = remotes.account.map { [accountSettings, health, statePath = paths.statePath] accountRemote in
            AccountDirectory(known: knownOwners, discover: { (try? await SQLiteAccountStorage.owners(in: databases.state)) ?? [] }) { owner in
                AccountSync(
                    remote: accountRemote, storage: SQLiteAccountStorage(store: databases.state, owner: owner),
                    sessions: FileAccountSessionStore(statePath: statePath, environment: environment, owner: owner),
                    settings: accountSettings, events: events, health: health, owner: owner)
            }
        }
        probe = RemoteProbe(health: health, remote: remote)
        // The timer imports by itself from TMDB's own files only for a daemon that talks to TMDB's
        // own API with a credential; a daemon without one asks TMDB nothing by itself, and one
        // pointed at a stand-in or a fleet's cache imports by itself only when [Catalogue] URL=
        // says from where (movies catalogue update always can: from the remote's host then).
        var catalogueSettings = configuration.catalogue.following(remote: configuration.remote.baseURL)
        if configuration.catalogue.url == CatalogueSettings().url,
           credential == .none || catalogueSettings.url != configuration.catalogue.url {
            catalogueSettings.timerImports = false
        }
        (catalogue, catalogueUpdater) = Self.openCatalogue(paths: paths, settings: catalogueSettings, events: events)
        // One instance of each repository, so interactive calls and refreshes share one fetch per key.
        moviesRepository = DefaultMoviesRepository(
            storage: responseStorage, remote: remote, health: health, policy: cachePolicy, storageHealth: storageHealth,
            index: SQLiteMovieTextIndex(store: store, upkeep: indexUpkeep), catalogue: catalogue)
        posterImagesRepository = DefaultPosterImagesRepository(
            storage: responseStorage, remote: remote, health: health, policy: cachePolicy, storageHealth: storageHealth)
        let wake = WakeSignal()
        // Watchlists are fetched in the language searches default to, so they serve them offline.
        let language = configuration.remote.language
        let watchlistRepository = DefaultWatchlistRepository(
            storage: SQLiteWatchlistStorage(store: stateStore), responses: responseStorage, language: language, didChange: { wake.signal() })
        // Refreshes pin each account's watchlist too, as one more list of its owner.
        let refreshedLists: any WatchlistRepository = accounts.map { AccountPinnedWatchlists(base: watchlistRepository, accounts: $0) } ?? watchlistRepository
        // Each owner's pins within a share of the cache's budget ([Users] PinnedBytesPerUser=).
        let refreshSettings = WatchlistRefresher.Settings(
            posters: configuration.refresh.posters, language: language, aheadFraction: configuration.refresh.schedulerConfiguration.aheadFraction,
            pinBudget: PinBudget(cacheBytes: configuration.cache.maxBytes, userBytes: configuration.users.pinnedBytes))
        changeFeed = configuration.refresh.changeFeed
            ? ChangeFeedSync(
                remote: remote, storage: SQLiteChangeFeedStorage(store: store), movies: moviesRepository,
                posterImages: posterImagesRepository, health: health,
                settings: ChangeFeedSync.Settings(
                    interval: Double(configuration.refresh.changeFeedIntervalSeconds), language: refreshSettings.language,
                    posterSize: refreshSettings.posterSize),
                events: events)
            : nil
        refresher = WatchlistRefresher(
            watchlists: refreshedLists, movies: moviesRepository, posterImages: posterImagesRepository,
            responses: responseStorage, settings: refreshSettings, events: events, changeFeed: changeFeed, account: accounts,
            history: SQLiteRefreshHistoryStorage(store: databases.state), probe: probe)
        scheduler = configuration.refresh.enabled
            ? RefreshScheduler(
                refresher: refresher, responses: responseStorage, configuration: configuration.refresh.schedulerConfiguration, wake: wake,
                changeFeed: changeFeed, account: accounts)
            : nil
        self.watchlistRepository = watchlistRepository
    }

    let watchlistRepository: DefaultWatchlistRepository

    let moviesRepository: DefaultMoviesRepository
    let posterImagesRepository: DefaultPosterImagesRepository

    /// The watchlist use cases and the refresh state for the service.
    func makeWatchlistDependencies() -> WatchlistDependencies {
        let refresher = refresher
        let scheduler = scheduler
        let changeFeed = changeFeed
        return WatchlistDependencies(
            manageWatchlists: ManageWatchlistsUseCase(repository: watchlistRepository, quotas: configuration.users),
            refreshWatchlists: RefreshWatchlistsUseCase(refresher: refresher),
            refreshStatus: { scope in
                // Another user's lists and queries are not to be followed step by step, nor their
                // refreshes' counts and times known: the refresher says what this call may see.
                let activity = await refresher.activity(seenBy: scope)
                let schedule = await scheduler?.state()
                return RefreshStatus(
                    running: activity.running, progress: activity.progress, last: activity.last,
                    scheduler: schedule?.state ?? .disabled, nextRunAt: schedule?.nextRunAt, changeFeed: await changeFeed?.status())
            })
    }

    /// Opens the state and cache databases (`MoviesDatabases.open`): moves an old single file's
    /// user data into the state database, checks both files, moves a damaged cache aside and
    /// rebuilds it (logged at `error`). Another process's lock is waited for a third of the answer
    /// deadline at most (5 s without one), so a write never holds an answer past its deadline.
    /// - Throws: ``StartupError`` with exit 73 and one line saying what to do (a damaged state
    ///   database is left untouched).
    static func openDatabases(paths: DaemonPaths, configuration: DaemonConfiguration, events: any EventLog) throws(StartupError) -> MoviesDatabases {
        let options = MoviesDatabases.Options(busyTimeoutMilliseconds: busyTimeoutMilliseconds(answerDeadlineSeconds: configuration.daemon.answerDeadlineSeconds))
        do {
            return try MoviesDatabases.open(cachePath: paths.databasePath, statePath: paths.statePath, options: options, report: { event in
                switch event {
                case let .movedUserData(from, to):
                    events.record(DataEvent(.notice, "storage.split", "moved watchlists and recent queries from \(from) into the new state database \(to)"))
                case let .cacheQuarantined(path, movedTo, reason):
                    events.record(DataEvent(.error, "storage.cache-rebuilt", "the cache database \(path) was damaged (\(reason)); moved it to \(movedTo) and started an empty cache"))
                case let .integrityCheckIncomplete(path):
                    events.record(DataEvent(.info, "storage.check-incomplete", "the start-up integrity check of \(path) ran out of time before it finished; nothing wrong was found until then"))
                }
            })
        } catch {
            throw StartupError(error.message, exitCode: StartupError.cannotCreateExitCode)
        }
    }

    /// How long a database connection waits for another process's lock: a third of the answer
    /// deadline (a call may write twice: the response and the recent query), at least 100 ms, at
    /// most SQLite's customary 5 s, which also applies when there is no answer deadline (0).
    static func busyTimeoutMilliseconds(answerDeadlineSeconds: Int) -> Int32 {
        guard answerDeadlineSeconds > 0 else { return 5000 }
        return Int32(clamping: min(5000, max(100, answerDeadlineSeconds.multipliedReportingOverflow(by: 1000).partialValue / 3)))
    }

    /// TMDB for the cache and for the account (sharing one token bucket); no account remote
    /// without a credential.
    /// Opens the catalogue at `paths.cataloguePath`. A catalogue that cannot be opened (damaged,
    /// or written by a newer moviesd) is said in the journal and left alone: the daemon runs
    /// without one, as TMDB can give it again (move the file aside to start a new one).
    private static func openCatalogue(
        paths: DaemonPaths, settings: CatalogueSettings, events: any EventLog
    ) -> (SQLiteCatalogue?, CatalogueUpdater?) {
        do {
            let catalogue = try SQLiteCatalogue(path: paths.cataloguePath)
            // A transport of its own: the export needs no TMDB credential, and its one long
            // download does not share a connection with the calls people wait for. Made on the
            // first download: a start loads no libcurl for it (measured: +6 ms to a ready socket).
            let updater = CatalogueUpdater(
                storage: catalogue, transport: LazyHTTPTransport { CurlTransport() }, settings: settings,
                downloadPath: paths.cataloguePath + ".download",
                events: events)
            return (catalogue, updater)
        } catch {
            events.record(DataEvent(.error, "catalogue.unusable", "cannot open the catalogue \(paths.cataloguePath): \(error); searching without it (move the file aside to import a new one)"))
            return (nil, nil)
        }
    }

    private static func makeRemote(
        _ settings: RemoteSettings, credential: LoadedCredential, metrics: RequestMetrics
    ) throws(StartupError) -> (movies: any MoviesRemote, account: TMDBAccountRemote?) {
        let networkCredential: Credential
        switch credential {
        case .bearer(let token): networkCredential = .bearer(token)
        case .apiKey(let key): networkCredential = .apiKey(key)
        case .none: return (UnconfiguredRemote(), nil)
        }
        guard let baseURL = URL(string: settings.baseURL) else {
            throw StartupError("moviesd: the remote URL '\(settings.baseURL)' is not a valid URL", exitCode: StartupError.configurationExitCode)
        }
        let configuration = TMDBRemoteConfiguration(
            apiBaseURL: baseURL,
            credential: networkCredential,
            requestTimeoutSeconds: Double(settings.requestTimeoutSeconds),
            deadlineSeconds: Double(settings.deadlineSeconds),
            requestsPerSecond: settings.requestsPerSecond,
            retryPolicy: RetryPolicy(maxAttempts: settings.maxRetries + 1)
        )
        // One transport (one libcurl multi handle, one thread, one connection cache) for both.
        let transport = CurlTransport()
        let movies = TMDBRemote(configuration: configuration, transport: transport, metrics: metrics)
        return (movies, TMDBAccountRemote(configuration: configuration, transport: transport, rateLimiter: movies.rateLimiter, metrics: metrics))
    }

    // MARK: - Repositories

    func makeMoviesRepository() -> any MoviesRepository {
        moviesRepository
    }

    func makeQueriesRepository() -> any MoviesQueriesRepository {
        DefaultMoviesQueriesRepository(storage: recentQueriesStorage, storageHealth: storageHealth)
    }

    func makePosterImagesRepository() -> any PosterImagesRepository {
        posterImagesRepository
    }

    func makeCacheMaintenanceRepository() -> any CacheMaintenanceRepository {
        DefaultCacheMaintenanceRepository(storage: responseStorage, policy: cachePolicy, storageHealth: storageHealth)
    }

    // MARK: - Presentation

    /// The `io.moviesd.Movies` service.
    public func makeMoviesService(startedAt: Date, daemonUID: UInt32, authorizedGID: UInt32?) -> MoviesVarlinkService {
        let moviesRepository = makeMoviesRepository()
        let queriesRepository = makeQueriesRepository()
        let dependencies = MoviesVarlinkService.Dependencies(
            searchMovies: SearchMoviesUseCase(moviesRepository: moviesRepository, queriesRepository: queriesRepository),
            fetchMovieDetails: FetchMovieDetailsUseCase(moviesRepository: moviesRepository),
            fetchPosterImage: FetchPosterImageUseCase(posterImagesRepository: makePosterImagesRepository()),
            fetchRecentQueries: FetchRecentQueriesUseCase(queriesRepository: queriesRepository),
            cacheMaintenance: makeCacheMaintenanceRepository(),
            remoteStatus: health,
            watchlists: makeWatchlistDependencies(),
            storageHealth: storageHealth,
            account: accounts.map { [configuration] in ManageAccountUseCase(repositories: $0, quotas: configuration.users) },
            catalogue: catalogueUpdater
        )
        let settings = MoviesVarlinkService.Settings(
            version: MoviesdRelease.version,
            startedAt: startedAt,
            answerDeadlineSeconds: configuration.daemon.answerDeadlineSeconds,
            daemonUID: daemonUID,
            authorizedGID: authorizedGID,
            events: events,
            remembered: { [responseStorage] key in responseStorage.remembered(forKey: key) },
            refreshDeadlineSeconds: configuration.refresh.deadlineSeconds,
            defaultLanguage: configuration.remote.language,
            cachePolicy: cachePolicy
        )
        return MoviesVarlinkService(dependencies: dependencies, settings: settings)
    }

    /// The Varlink server with the daemon's limits.
    public func makeServer(handlers: [any VarlinkInterfaceHandler]) -> VarlinkServer {
        var server = VarlinkServerConfiguration(
            vendor: "moviesd", product: "moviesd", version: MoviesdRelease.version,
            url: "https://github.com/moviesd/moviesd"
        )
        server.maxMessageBytes = configuration.daemon.maxMessageBytes
        server.maxConnections = configuration.daemon.maxConnections
        server.maxConnectionsPerUser = configuration.daemon.maxConnectionsPerUser
        server.eventLoops = configuration.daemon.eventLoopCount
        // Root and the daemon's own user (movies-refresh runs as it) always find room.
        server.privilegedUIDs = [0, getuid()]
        // A user service (PrivateUsers=yes) cannot name another user who gets through its 0600
        // socket (root): all of them show as the overflow uid, and none may act as that one user.
        server.unmappedPeerUID = UserNamespace.current().unmappedPeerUID
        server.connectionLimitError = { limit, reason in
            VarlinkError(name: "\(MoviesInterface.name).TooManyConnections", parameters: ["limit": .int(Int64(limit)), "reason": .string(reason)])
        }
        server.idleTimeoutSeconds = configuration.daemon.idleTimeoutSeconds
        server.callDeadlineSeconds = configuration.daemon.callDeadlineSeconds
        server.deadlineError = { seconds in VarlinkError.timeout(seconds: seconds) }
        return VarlinkServer(configuration: server, handlers: handlers)
    }

    /// Looks once a second for commits to the cache by other processes (the `sqlite3` shell, a
    /// restore), so that answers held in memory are not trusted past them, and, while a database
    /// is `locked`, whether the other process has let go (so `Status` says so within a second,
    /// not at the next write); returns when cancelled. Off the event loop: serving an answer from
    /// memory only reads the change counter.
    public func watchExternalWrites() async {
        while !Task.isCancelled {
            let revision = store.writeRevision
            await store.noticeExternalWrites()
            // Pages another process stored are queued for the index like the daemon's own.
            if store.writeRevision != revision { indexUpkeep.wake() }
            for (database, databaseStore) in [(StorageHealthMonitor.Database.cache, store), (.state, stateStore)]
            where storageHealth.state(of: database) == .locked {
                await databaseStore.probeWriteLock()
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Flushes pending access times and closes both databases cleanly.
    public func close() async {
        await store.close()
        await stateStore.close()
    }
}
