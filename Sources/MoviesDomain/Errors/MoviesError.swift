/// The domain's error: a stable machine code and one human sentence.
///
/// A struct wrapping an open set of codes (rather than an enum) so codes can be added without
/// breaking callers. The message never contains the TMDB credential.
public struct MoviesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable error code. The Varlink boundary maps each to an error name.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A caller supplied a bad argument (empty query, page out of 1...500...).
        public static let invalidArgument = Code(rawValue: "invalid_argument")
        /// The policy forbids the network and nothing usable is cached.
        public static let notCached = Code(rawValue: "not_cached")
        /// TMDB says the resource does not exist (codes 34 and 6).
        public static let notFound = Code(rawValue: "not_found")
        /// TMDB could not be reached or failed (transport error, timeout, 5xx, 429, offline backoff).
        public static let remoteUnavailable = Code(rawValue: "remote_unavailable")
        /// TMDB refused the request (bad credential, bad parameter): retrying will not help.
        public static let remoteRejected = Code(rawValue: "remote_rejected")
        /// The remote's answer could not be decoded; nothing was cached.
        public static let invalidResponse = Code(rawValue: "invalid_response")
        /// The local database failed.
        public static let storage = Code(rawValue: "storage")
        /// The request was cancelled or ran out of time.
        public static let cancelled = Code(rawValue: "cancelled")
        /// An account operation needs a TMDB sign-in (`movies account login`), or TMDB refused the
        /// session (`tmdbCode` says why).
        public static let notSignedIn = Code(rawValue: "not_signed_in")
        /// The caller may not do this (another user's data, or the system's without the admin group).
        public static let permissionDenied = Code(rawValue: "permission_denied")
        /// The caller's fair share is used up (`quota` names the limit).
        public static let quotaExceeded = Code(rawValue: "quota_exceeded")
    }

    public var code: Code
    /// One sentence saying what went wrong and, where possible, what to do.
    public var message: String
    /// Seconds after which a retry may succeed (rate limiting, offline backoff).
    public var retryAfterSeconds: Int?
    /// The HTTP status TMDB answered with, for remote errors.
    public var httpStatus: Int?
    /// TMDB's own `status_code`, when its error body had one.
    public var tmdbCode: Int?
    /// The movie id, for `notFound` on a movie.
    public var movieID: Int?
    /// The typed cause of a `.storage` error.
    public var storageFault: StorageFault?
    /// The argument an `.invalidArgument` error is about (`page`, `language`, `region`, `year`),
    /// when one is to blame: the Varlink boundary names it in `InvalidArgument`.
    public var parameter: String?
    /// The limit a `.quotaExceeded` error hit: its name in moviesd.conf (`WatchlistsPerUser`,
    /// `EntriesPerUser`, `PendingEditsPerUser`) and its value.
    public var quota: (name: String, maximum: Int)? {
        get { quotaName.map { ($0, quotaMaximum) } }
        set {
            quotaName = newValue?.name
            quotaMaximum = newValue?.maximum ?? 0
        }
    }
    private var quotaName: String?
    private var quotaMaximum = 0

    /// Creates an error.
    public init(code: Code, message: String, retryAfterSeconds: Int? = nil, httpStatus: Int? = nil, tmdbCode: Int? = nil, movieID: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
        self.httpStatus = httpStatus
        self.tmdbCode = tmdbCode
        self.movieID = movieID
    }

    public var description: String { "\(code): \(message)" }

    /// A storage failure caused by `fault`: the fault's advice, and the engine's `detail` when known.
    public static func storage(_ fault: StorageFault, detail: String? = nil) -> MoviesError {
        var error = MoviesError(code: .storage, message: fault.advice + (detail.map { " (\($0))" } ?? ""))
        error.storageFault = fault
        return error
    }

    /// The storage error for any error a storage adapter threw: typed when it reports its fault.
    public static func storage(wrapping error: any Error) -> MoviesError {
        if let error = error as? MoviesError { return error }
        if let error = error as? StorageFaultReporting { return .storage(error.storageFault, detail: error.storageDetail) }
        return .storage(.unavailable, detail: "\(type(of: error))")
    }

    /// A bad argument from a caller; `parameter` names it when one is to blame.
    public static func invalidArgument(_ message: String, parameter: String? = nil) -> MoviesError {
        var error = MoviesError(code: .invalidArgument, message: message)
        error.parameter = parameter
        return error
    }

    /// There is no watchlist named `name` (a not-found error, not a usage error: the name is well formed).
    public static func noSuchWatchlist(_ name: String) -> MoviesError {
        MoviesError(code: .notFound, message: "there is no watchlist named '\(name)'")
    }

    /// The caller may not do this.
    public static func permissionDenied(_ message: String) -> MoviesError {
        MoviesError(code: .permissionDenied, message: message)
    }

    /// A per-user quota `name` (its moviesd.conf key) of `maximum` would be exceeded; `message` says by what.
    public static func quotaExceeded(_ name: String, maximum: Int, _ message: String) -> MoviesError {
        var error = MoviesError(code: .quotaExceeded, message: message)
        error.quota = (name, maximum)
        return error
    }

    /// Nobody is signed in to TMDB.
    public static func notSignedIn(_ message: String = "nobody is signed in to TMDB; sign in with: movies account login") -> MoviesError {
        MoviesError(code: .notSignedIn, message: message)
    }

    /// Nothing cached and the network not allowed or not reachable.
    public static func notCached(_ message: String) -> MoviesError {
        MoviesError(code: .notCached, message: message)
    }

    /// Whether TMDB rejected the credential itself (TMDB code 7, or HTTP 401).
    public var isAuthRejection: Bool {
        code == .remoteRejected && (tmdbCode == 7 || httpStatus == 401)
    }
}
