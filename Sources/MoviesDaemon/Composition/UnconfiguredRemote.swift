import MoviesData
import MoviesDomain

/// The remote used when no TMDB credential is configured: every fetch is refused as a credential
/// failure (TMDB code 7, the credential's) that says how to configure one, so the daemon still
/// serves its cache and `Status` reports `auth_rejected` rather than `offline`. No request is made,
/// so there is no HTTP status (the reply's `httpStatus` is 0).
struct UnconfiguredRemote: MoviesRemote {
    func fetch(_ request: RemoteRequest, etag: String?) async throws -> RemoteResponse {
        throw MoviesError(
            code: .remoteRejected,
            message: "moviesd has no TMDB credential, so it did not ask TMDB: set MOVIESD_TMDB_TOKEN (or MOVIESD_TMDB_API_KEY) for moviesd, or put the token in /etc/moviesd/tmdb-token for the system service or ~/.config/moviesd/tmdb-token for the user service (both LoadCredential=tmdb-token), then restart moviesd",
            tmdbCode: 7
        )
    }
}
