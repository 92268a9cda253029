import MoviesData
import MoviesDomain

/// The remote used when no TMDB credential is configured: every fetch is refused, without a
/// request, with an error that says how to configure one, so the daemon still serves its cache.
///
/// The error is `remoteRejected` with TMDB's credential code 7 and no HTTP status (the reply's
/// `httpStatus` is 0), which clients of every version show as a credential problem with this
/// message. `RemoteHealth`, told that the credential is missing, learns nothing from it: `Status`
/// says `credential: missing` (state `unknown`), never `auth_rejected`.
struct UnconfiguredRemote: MoviesRemote {
    /// How to configure a credential, for the error and the journal.
    static let remedy = "set MOVIESD_TMDB_TOKEN (or MOVIESD_TMDB_API_KEY) for moviesd, or put the token in /etc/moviesd/tmdb-token for the system service or ~/.config/moviesd/tmdb-token for the user service (both LoadCredential=tmdb-token), then restart moviesd"
    /// The error's message: what is missing and how to configure it.
    static let explanation = "moviesd has no TMDB credential, so it did not ask TMDB: \(remedy)"

    func fetch(_ request: RemoteRequest, etag: String?) async throws -> RemoteResponse {
        throw MoviesError(code: .remoteRejected, message: Self.explanation, tmdbCode: 7)
    }
}
