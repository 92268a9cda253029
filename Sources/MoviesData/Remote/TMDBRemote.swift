import FoundationEssentials
import MoviesDomain
import Networking

/// `MoviesRemote` over TMDB API v3 through `Networking` (DESIGN §5).
///
/// Requests go to `search/movie`, `movie/{id}` and `configuration` with the credential (Bearer
/// header or `api_key`); images go to the absolute image URL with no credential. Every request waits
/// for the shared token bucket, is retried only when retrying may help, and ends within the deadline.
/// Errors are `MoviesError`s whose messages never contain the credential.
public struct TMDBRemote: MoviesRemote {
    private let service: NetworkService
    private let configuration: TMDBRemoteConfiguration

    /// Creates a remote. Pass `rateLimiter` to share one bucket between remotes using one credential;
    /// `timeSource` drives backoff and rate-limit waits (tests pass a virtual clock); `metrics`
    /// counts the requests (shared with the account's remote).
    public init(
        configuration: TMDBRemoteConfiguration,
        transport: any HTTPTransport = CurlTransport(),
        rateLimiter: TokenBucketRateLimiter? = nil,
        timeSource: TimeSource = .system,
        metrics: RequestMetrics? = nil
    ) {
        self.configuration = configuration
        self.service = NetworkService(
            baseURL: configuration.apiBaseURL,
            credential: configuration.credential,
            transport: transport,
            rateLimiter: rateLimiter ?? TokenBucketRateLimiter(
                requestsPerSecond: configuration.requestsPerSecond,
                burst: configuration.burst,
                timeSource: timeSource
            ),
            retryPolicy: configuration.retryPolicy,
            requestTimeoutSeconds: configuration.requestTimeoutSeconds,
            deadlineSeconds: configuration.deadlineSeconds,
            timeSource: timeSource,
            metrics: metrics
        )
    }

    /// The token bucket this remote waits on.
    public var rateLimiter: TokenBucketRateLimiter { service.rateLimiter }

    /// Performs `request`, sending `If-None-Match: etag` when an etag is given; a 304 comes back as
    /// `RemoteResponse(httpStatus: 304)`. Throws `MoviesError` as `MoviesRemote` documents.
    public func fetch(_ request: RemoteRequest, etag: String?) async throws -> RemoteResponse {
        do {
            var endpoint = try TMDBEndpoints.endpoint(for: request)
            endpoint.kind = request.kind
            if let etag, !etag.isEmpty { endpoint.headers["If-None-Match"] = etag }
            let response = try await service.response(for: endpoint)
            return try TMDBResponseInterpreter.interpret(response, for: request)
        } catch let error as MoviesError {
            throw scrubbed(error)
        } catch let error as NetworkError {
            throw scrubbed(TMDBResponseInterpreter.error(for: error, deadlineSeconds: configuration.deadlineSeconds))
        } catch is CancellationError {
            throw MoviesError(code: .cancelled, message: "The request to TMDB was cancelled.")
        } catch {
            throw MoviesError(code: .remoteUnavailable, message: "The request to TMDB failed unexpectedly.")
        }
    }

    /// `error` with the credential removed from its message, whatever TMDB or the transport echoed.
    private func scrubbed(_ error: MoviesError) -> MoviesError {
        var error = error
        error.message = configuration.credential.scrub(error.message)
        return error
    }
}
