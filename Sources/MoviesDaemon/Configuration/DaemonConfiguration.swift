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

    /// The documented defaults.
    public init() {}

    /// The documented defaults.
    public static var defaults: DaemonConfiguration { DaemonConfiguration() }
}
