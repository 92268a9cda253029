/// Port: TMDB as the repositories see it. Adapter: `TMDBRemote` (Networking over libcurl);
/// tests use a scripted fake.
///
/// Errors are `MoviesError`s: `.notFound` (with `tmdbCode` 34 or 6 when authoritative),
/// `.remoteRejected` (401/400/422 with `httpStatus`, `tmdbCode`), `.remoteUnavailable` (transport,
/// timeout, 5xx, 429 with `retryAfterSeconds`), `.invalidResponse` (undecodable body), `.cancelled`.
/// No error message contains the credential.
public protocol MoviesRemote: Sendable {
    /// Performs `request`; sends `If-None-Match: etag` when `etag` is given (a 304 comes back as
    /// a `RemoteResponse` with `isNotModified`).
    func fetch(_ request: RemoteRequest, etag: String?) async throws -> RemoteResponse
}

import MoviesDomain
