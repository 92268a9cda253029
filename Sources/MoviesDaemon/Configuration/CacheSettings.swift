import MoviesData

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
