import Glibc
import MoviesData
import MoviesDomain
import SystemSupport

/// Every setting of the daemon, each with its documented default (see `etc/moviesd.conf`).
///
/// Built from the defaults, then a configuration file (``ConfigurationFile``), then the command line
/// (``DaemonArguments``), each overriding the one before.
public struct DaemonConfiguration: Sendable, Hashable {
    /// `[Daemon]`: socket, database, authorization, logging and server limits.
    public var daemon = DaemonSettings()
    /// `[Remote]`: TMDB's URL, rate, timeouts and language.
    public var remote = RemoteSettings()
    /// `[Cache]`: fresh lifetimes, max-stale bounds and the byte budget.
    public var cache = CacheSettings()
    /// `[Refresh]`: watchlist prefetch and refresh-ahead.
    public var refresh = RefreshSettings()
    /// `[Users]`: each local user's fair share (personal watchlists, entries, pending edits).
    public var users = UserQuotas()
    /// Where each setting read from a file was last assigned, for an error found only when the
    /// value is used (``resolvedAuthorizedGroupID()``).
    public var origins: [ConfigurationKey: ConfigurationOrigin] = [:]
    /// `[Catalogue]`: TMDB's daily ID export (moviesd.conf(5)).
    public var catalogue = CatalogueSettings()

    /// The documented defaults.
    public init() {}

    /// The documented defaults.
    public static var defaults: DaemonConfiguration { DaemonConfiguration() }
}

extension DaemonConfiguration {
    /// The configuration for `arguments`: defaults, then the configuration file, then its drop-ins,
    /// then the command line.
    ///
    /// The file is `--config FILE` when given (it must exist), else the default one from
    /// ``DaemonPaths/defaultConfigurationPath(environment:uid:homeDirectory:)`` if it exists. Its drop-ins,
    /// `FILE.d/*.conf` (``ConfigurationDropIns``), are read after it in lexical order whether or not
    /// the default file exists, so an administrator's changes can live beside a packaged file that
    /// upgrades replace.
    /// - Throws: ``ConfigurationError`` naming the file (main or drop-in) and line at fault.
    public static func load(arguments: DaemonArguments, environment: [String: String], uid: UInt32) throws(ConfigurationError) -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        let path: String
        if let given = arguments.configurationPath {
            path = given
            configuration = try ConfigurationFile.load(path: path).applied(to: configuration)
        } else {
            path = DaemonPaths.defaultConfigurationPath(environment: environment, uid: uid)
            if access(path, F_OK) == 0 {
                configuration = try ConfigurationFile.load(path: path).applied(to: configuration)
            }
        }
        for dropIn in try ConfigurationDropIns(configurationPath: path).paths {
            configuration = try ConfigurationFile.load(path: dropIn).applied(to: configuration)
        }
        // A quota error says where an administrator raises it: a drop-in of this file.
        configuration.users.raisedIn = ConfigurationDropIns.directory(for: path) + "/*.conf"
        return arguments.applied(to: configuration)
    }

    /// The gid of `AuthorizedGroup=`, nil when none is set.
    /// - Throws: ``ConfigurationError`` naming the file and line that set a group the group
    ///   database does not know (the last assignment, in a drop-in or the main file).
    public func resolvedAuthorizedGroupID() throws(ConfigurationError) -> UInt32? {
        guard let group = daemon.authorizedGroup else { return nil }
        if let gid = group.groupID() { return gid }
        let reason = "no such group (create it with groupadd, or name an existing group or gid)"
        guard let origin = origins[ConfigurationKey(section: "Daemon", key: "AuthorizedGroup")] else {
            throw ConfigurationError(path: "AuthorizedGroup=\(group)", line: nil, reason: reason)
        }
        throw ConfigurationError(path: origin.path, line: origin.line, reason: "invalid value '\(group)' for AuthorizedGroup in section [Daemon]: \(reason)")
    }
}

/// The `[Daemon]` section: where the daemon listens and stores, who may mutate, and server limits.
public struct DaemonSettings: Sendable, Hashable {
    /// `Socket=`: the Varlink socket path; nil means the default from ``DaemonPaths``.
    public var socketPath: String?
    /// `SocketMode=`: the socket file's permission bits (octal in the file). Default 0666.
    public var socketMode: UInt32 = 0o666
    /// `Database=`: the SQLite cache path; nil means the default from ``DaemonPaths``.
    public var databasePath: String?
    /// `AuthorizedGroup=`: besides root and the daemon's own user, members of this group may make
    /// mutating calls. Nil: nobody else.
    public var authorizedGroup: AuthorizedGroup?
    /// `LogLevel=`: the least important level written. Default info.
    public var logLevel: LogLevel = .info
    /// `MaxConnections=`: simultaneous client connections. Default 4096.
    public var maxConnections: Int = 4096
    /// `MaxConnectionsPerUser=`: simultaneous connections of one user other than root and the
    /// daemon's own (who also have 16 of `MaxConnections` kept for them). 0: no per-user limit. Default 256.
    public var maxConnectionsPerUser: Int = 256
    /// `EventLoops=`: the event-loop threads serving connections. 0 (the default): one per CPU the
    /// daemon may run on.
    public var eventLoops: Int = 0

    /// The event loops to run: `eventLoops`, or one per CPU the daemon may run on.
    public var eventLoopCount: Int { eventLoops > 0 ? eventLoops : UsableProcessors.count() }
    /// `MaxMessageBytes=`: the largest Varlink message accepted. Default 8 MiB.
    public var maxMessageBytes: Int = 8_388_608
    /// `IdleTimeoutSec=`: an idle connection is closed after this long. Default 300.
    public var idleTimeoutSeconds: Int = 300
    /// `CallDeadlineSec=`: a call always ends (with an error if need be) within this time. Default 30.
    public var callDeadlineSeconds: Int = 30
    /// `AnswerDeadlineSec=`: how long a call without `more` waits for the network before answering
    /// with cached data. Default 3.
    public var answerDeadlineSeconds: Int = 3

    /// The documented defaults.
    public init() {}
}

/// The `[Remote]` section: where TMDB is and how hard to use it.
public struct RemoteSettings: Sendable, Hashable {
    /// `URL=`: TMDB's API base URL, always ending in `/`. Default `https://api.themoviedb.org/3/`.
    public var baseURL: String = "https://api.themoviedb.org/3/"
    /// `RequestsPerSecond=`: the token bucket's rate (TMDB allows about 40). Default 35.
    public var requestsPerSecond: Double = 35
    /// `RequestTimeoutSec=`: one HTTP attempt's timeout, whole seconds. Default 10.
    public var requestTimeoutSeconds: Int = 10
    /// `DeadlineSec=`: the overall deadline of one fetch including retries. Default 15.
    public var deadlineSeconds: Int = 15
    /// `MaxRetries=`: retries of transport errors, 5xx and 429. Default 2.
    public var maxRetries: Int = 2
    /// `Language=`: the `language` parameter sent to TMDB; nil for TMDB's default.
    public var language: String?

    /// The documented defaults.
    public init() {}
}

/// The `[Cache]` section: fresh lifetimes, max-stale bounds and the byte budget (DESIGN §4).
public struct CacheSettings: Sendable, Hashable {
    /// `SearchFreshSec=`: a search page is fresh this long. Default 6 h.
    public var searchFreshSeconds: Int = 21_600
    /// `MovieFreshSec=`: movie details are fresh this long. Default 24 h.
    public var movieFreshSeconds: Int = 86_400
    /// `ConfigurationFreshSec=`: TMDB's image configuration is fresh this long. Default 3 d.
    public var configurationFreshSeconds: Int = 259_200
    /// `SearchMaxStaleSec=`: a stale search page may be served this long past fresh. Default 30 d.
    public var searchMaxStaleSeconds: Int = 2_592_000
    /// `MovieMaxStaleSec=`: stale movie details may be served this long past fresh. Default 180 d.
    public var movieMaxStaleSeconds: Int = 15_552_000
    /// `NegativeSec=`: how long an authoritative TMDB 404 is remembered. Default 600.
    public var negativeSeconds: Int = 600
    /// `MaxBytes=`: the eviction budget for stored bodies. Default 512 MiB.
    public var maxBytes: Int64 = 536_870_912
    /// `MemoryMaxBytes=`: memory for cached answers kept ready to send (search pages in the reply's
    /// shape), the daemon's largest use of memory; 0 keeps none. Default 128 MiB: about 10,000 search pages, the memory used only as pages are
    /// read (measured RSS with 10,000 pages held: ~200 MiB; BENCHMARKS.md).
    public var memoryMaxBytes: Int64 = 134_217_728
    /// `HonorRemoteMaxAge=`: whether TMDB's `Cache-Control: max-age` overrides the fresh lifetimes.
    /// Default no.
    public var honorRemoteMaxAge: Bool = false

    /// The documented defaults.
    public init() {}

    /// These settings as the data layer's cache policy (configuration and poster bounds other than
    /// fresh time keep the policy's defaults).
    public var cachePolicy: CachePolicy {
        var fresh = CachePolicy.defaultFreshSeconds
        fresh[.search] = searchFreshSeconds
        fresh[.movie] = movieFreshSeconds
        fresh[.configuration] = configurationFreshSeconds
        var maxStale = CachePolicy.defaultMaxStaleSeconds
        maxStale[.search] = searchMaxStaleSeconds
        maxStale[.movie] = movieMaxStaleSeconds
        return CachePolicy(
            freshSeconds: fresh,
            maxStaleSeconds: maxStale,
            negativeSeconds: negativeSeconds,
            honorRemoteMaxAge: honorRemoteMaxAge,
            byteBudget: maxBytes
        )
    }
}

/// The `[Refresh]` section: watchlist prefetch and the refresh-ahead scheduler (DESIGN §4).
public struct RefreshSettings: Sendable, Hashable {
    /// `Enabled=`: whether the scheduler refreshes watchlist entries ahead of expiry. Default yes.
    public var enabled: Bool = true
    /// `RequestsPerSecond=`: the scheduler's background budget, well under `[Remote] RequestsPerSecond`
    /// so interactive calls keep room. Default 10.
    public var requestsPerSecond: Double = 10
    /// `Posters=`: whether posters of watchlist movies are prefetched too. Default yes.
    public var posters: Bool = true
    /// `DeadlineSec=`: the deadline of one on-demand `Refresh` call (it streams progress, so the
    /// general `CallDeadlineSec` does not apply); 0 for none. Default 3600.
    public var deadlineSeconds: Int = 3600
    /// `ChangeFeed=`: whether TMDB's change feed decides which cached movies are fetched again
    /// (those it lists) and which stay fresh without a request (the others). Default yes.
    public var changeFeed: Bool = true
    /// `ChangeFeedIntervalSec=`: time between reads of the change feed (each reads the days since
    /// the last, plus one); movies it confirms stay fresh for 1.5 times this. Default 24 h.
    public var changeFeedIntervalSeconds: Int = 86_400
    /// How often the TMDB account's lists are pulled when signed in (`AccountPullIntervalSec=`,
    /// default 1 h); edits are sent as soon as they are made, whatever this says.
    public var accountPullIntervalSeconds: Int = 3600

    /// The documented defaults.
    public init() {}

    /// The scheduler's configuration.
    public var schedulerConfiguration: RefreshScheduler.Configuration {
        RefreshScheduler.Configuration(requestsPerSecond: requestsPerSecond)
    }
}
