import MoviesDomain

extension MoviesError {
    /// `error` as a `MoviesError`: itself when it already is one, `.cancelled` for a
    /// `CancellationError`, a typed `.storage` error for a storage adapter's error, otherwise a remote failure named by its type only (an arbitrary
    /// error's text could carry a URL with the credential, so it is never copied).
    init(wrapping error: any Error) {
        if let error = error as? MoviesError {
            self = error
        } else if error is CancellationError {
            self = MoviesError(code: .cancelled, message: "the request was cancelled")
        } else if error is StorageFaultReporting {
            // A database failure is not TMDB's: keep its typed fault.
            self = MoviesError.storage(wrapping: error)
        } else {
            self = MoviesError(code: .remoteUnavailable, message: "the request to TMDB failed (\(type(of: error)))")
        }
    }

    /// Whether this is TMDB's authoritative "not found" (status codes 34 and 6), the only error
    /// that is cached.
    var isAuthoritativeNotFound: Bool {
        code == .notFound && (tmdbCode == 34 || tmdbCode == 6)
    }
}
