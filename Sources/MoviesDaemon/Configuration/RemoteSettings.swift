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
