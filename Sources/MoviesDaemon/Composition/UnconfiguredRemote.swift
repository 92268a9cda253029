import MoviesData
import MoviesDomain

/// The remote used when no TMDB credential is configured: every fetch is rejected as an auth
/// failure that says how to configure one, so the daemon still serves its cache and `Status`
/// reports `auth_rejected` rather than `offline`.
struct UnconfiguredRemote: MoviesRemote {
    func fetch(_ request: RemoteRequest, etag: String?) async throws -> RemoteResponse {
        throw MoviesError(
            code: .remoteRejected,
            message: "no TMDB credential is configured: set MOVIESD_TMDB_TOKEN or use LoadCredential=tmdb-token:FILE",
            httpStatus: 401,
            tmdbCode: 7
        )
    }
}
