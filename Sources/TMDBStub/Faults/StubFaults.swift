/// The faults the stub currently injects on its main port. All shares are probabilities in 0...1.
public struct StubFaults: Sendable, Equatable {
    /// How often and how the stub answers 429 (TMDB code 25).
    public struct RateLimit: Sendable, Equatable {
        /// Share of requests answered 429.
        public var share: Double
        /// The `Retry-After` value in seconds.
        public var retryAfter: Int

        /// A rate limit answering `share` of requests with 429 and `Retry-After: retryAfter`.
        public init(share: Double, retryAfter: Int) {
            self.share = share
            self.retryAfter = retryAfter
        }
    }

    /// Delay added before every answer, in milliseconds.
    public var latencyMs: Int = 0
    /// Share of requests answered 500 with a TMDB-style body.
    public var errorRate: Double = 0
    /// The 429 fault.
    public var rateLimit = RateLimit(share: 0, retryAfter: 1)
    /// Share of 200 JSON answers whose body is broken JSON.
    public var malformedJSON: Double = 0
    /// Share of answers announcing a Content-Length larger than what is sent before the close.
    public var truncateBody: Double = 0
    /// Share of requests whose connection is closed with a TCP RST instead of an answer.
    public var reset: Double = 0
    /// Share of requests never answered (the connection stays open until the client gives up).
    public var hang: Double = 0
    /// When true the main listening socket is closed, so connections are refused.
    public var down = false
    /// When true every request carrying a session (the account and rating routes, and `DELETE
    /// /3/authentication/session`) is answered 401 code 3, as if its session had expired.
    public var sessionExpired = false
    /// Share of account writes (watchlist, favourite, rating) answered with a TCP RST instead of
    /// their answer after the stub handled them: a valid write is applied, and the client cannot
    /// tell whether it was.
    public var dropAfterApply: Double = 0
    /// Share of account writes answered `200` with a body that cannot be read (a proxy's HTML page)
    /// instead of TMDB's answer, without applying them: a client must not count them as delivered.
    public var unreadableWrites: Double = 0
    /// When true `errorRate`, `rateLimit`, `hang` and `reset` hit only account writes; reads keep working.
    public var writesOnly = false
    /// When true `errorRate`, `rateLimit`, `hang` and `reset` hit only the account's list reads
    /// (`GET /3/account/{id}/{list}/movies`); writes and everything else keep working.
    public var listsOnly = false

    /// What is wrong with the export files (`/p/exports/…`): `""` nothing, `truncated` (a whole
    /// answer of the first half of the gzip file, as a cache that kept a cut-off copy would send),
    /// `corrupt` (bytes in the middle of the file changed; gzip's CRC fails).
    public var export = ""
    /// Export days (`YYYY-MM-DD`) answered 404, or `*` for every day.
    public var exportMissing: [String] = []
    /// When above 0, the export is sent at this many bytes a second (a slow mirror).
    public var exportBytesPerSecond = 0

    /// No faults.
    public init() {}

    /// Whether every fault is off.
    public var isEmpty: Bool { self == StubFaults() }
}
