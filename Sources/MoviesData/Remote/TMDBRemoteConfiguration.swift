import FoundationEssentials
import Networking

/// How `TMDBRemote` reaches TMDB: base URL, credential, timeouts, rate and retries (DESIGN §4, §5).
public struct TMDBRemoteConfiguration: Sendable {
    /// The API root; endpoint paths such as `search/movie` are relative to it.
    public var apiBaseURL: URL
    /// The v4 read access token (`.bearer`, preferred) or the v3 API key (`.apiKey`).
    public var credential: Credential
    /// The timeout of one attempt, in seconds (libcurl enforces it to the millisecond).
    public var requestTimeoutSeconds: Double
    /// The limit for a whole fetch, retries and rate-limit waits included, in seconds.
    public var deadlineSeconds: Double
    /// The token bucket's refill rate (TMDB allows about 40 requests per second).
    public var requestsPerSecond: Double
    /// The token bucket's capacity; `nil` means one second's worth.
    public var burst: Int?
    /// Which failures are retried, and how long to wait between attempts.
    public var retryPolicy: RetryPolicy

    /// Creates a configuration with TMDB's defaults.
    public init(
        apiBaseURL: URL = TMDBRemoteConfiguration.defaultAPIBaseURL,
        credential: Credential,
        requestTimeoutSeconds: Double = 10,
        deadlineSeconds: Double = 15,
        requestsPerSecond: Double = 35,
        burst: Int? = nil,
        retryPolicy: RetryPolicy = .standard
    ) {
        self.apiBaseURL = apiBaseURL
        self.credential = credential
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.deadlineSeconds = deadlineSeconds
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst
        self.retryPolicy = retryPolicy
    }

    /// `https://api.themoviedb.org/3/`.
    public static var defaultAPIBaseURL: URL {
        // A literal, well-formed URL: the fallback is never taken.
        URL(string: "https://api.themoviedb.org/3/") ?? URL(filePath: "/")
    }
}
