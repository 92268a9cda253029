import FoundationEssentials
import MoviesDomain
import Networking

/// Turns TMDB's HTTP answers into `RemoteResponse`s or `MoviesError`s, as `MoviesRemote` documents:
/// the status is always checked, error bodies are decoded, and a 2xx body must decode as the
/// expected DTO so malformed JSON never reaches the cache. A search page and a movie's details are
/// the exception: the loader decodes them anyway before it stores anything, so they are decoded
/// once, there, and refused with `undecodable(_:)`'s error (`CachedRemoteLoader.fetchAndStore`).
enum TMDBResponseInterpreter {
    /// The response for a 2xx or 304 answer; throws the `MoviesError` for anything else.
    static func interpret(_ response: HTTPResponse, for request: RemoteRequest) throws -> RemoteResponse {
        switch response.status {
        case 200...299:
            try validate(response.body, for: request)
            return remoteResponse(response, body: response.body)
        case 304:
            return remoteResponse(response, body: Data())
        default:
            throw error(for: response, request: request)
        }
    }

    /// The `MoviesError` for a non-2xx, non-304 answer.
    static func error(for response: HTTPResponse, request: RemoteRequest) -> MoviesError {
        let status = response.status
        let body = TMDBErrorDTO.decode(response.body)
        let tmdbCode = body?.statusCode
        let detail = body?.message.map { sentenceFragment($0) }
        switch status {
        case 404 where tmdbCode == 34 || tmdbCode == 6 || isImage(request):
            return MoviesError(code: .notFound, message: notFoundMessage(for: request), httpStatus: 404, tmdbCode: tmdbCode, movieID: movieID(of: request))
        case 401, 403:
            let reason = detail.map { " (\($0))" } ?? ""
            return MoviesError(code: .remoteRejected, message: "TMDB rejected the credential\(reason); check the configured token.", httpStatus: status, tmdbCode: tmdbCode)
        case 429:
            let retryAfter = response.retryAfterSeconds
            let when = retryAfter.map { "retry after \($0) seconds" } ?? "retry later"
            return MoviesError(code: .remoteUnavailable, message: "TMDB is rate limiting requests; \(when).", retryAfterSeconds: retryAfter, httpStatus: 429, tmdbCode: tmdbCode)
        case 500...599:
            return MoviesError(code: .remoteUnavailable, message: "TMDB is unavailable (HTTP \(status)); try again later.", retryAfterSeconds: response.retryAfterSeconds, httpStatus: status, tmdbCode: tmdbCode)
        case 400...499:
            let reason = detail.map { ": \($0)" } ?? ""
            return MoviesError(code: .remoteRejected, message: "TMDB rejected the request (HTTP \(status))\(reason).", httpStatus: status, tmdbCode: tmdbCode)
        default:
            return MoviesError(code: .invalidResponse, message: "TMDB answered with unexpected HTTP status \(status).", httpStatus: status)
        }
    }

    /// The `MoviesError` for a failure without an HTTP answer.
    static func error(for networkError: NetworkError, deadlineSeconds: Double) -> MoviesError {
        switch networkError {
        case .cancelled:
            return MoviesError(code: .cancelled, message: "The request to TMDB was cancelled.")
        case .timedOut:
            return MoviesError(code: .remoteUnavailable, message: "TMDB did not answer within \(formatted(deadlineSeconds)) seconds.")
        case .invalidURL:
            return MoviesError(code: .invalidArgument, message: "The TMDB request address could not be built; check the configured API URL.")
        case .invalidResponse:
            return MoviesError(code: .remoteUnavailable, message: "TMDB's answer was not a valid HTTP response.")
        case .connectionReset:
            return MoviesError(code: .remoteUnavailable, message: "TMDB reset the connection before answering.")
        case .shortBody:
            return MoviesError(code: .remoteUnavailable, message: "TMDB closed the connection before sending the whole answer (short body); nothing was cached.")
        case .connectionRefused:
            return MoviesError(code: .remoteUnavailable, message: "TMDB refused the connection (nothing is listening at the configured address).")
        case .dnsFailure:
            return MoviesError(code: .remoteUnavailable, message: "TMDB's host name could not be resolved (DNS failure).")
        case .tlsFailure:
            return MoviesError(code: .remoteUnavailable, message: "The secure (TLS) connection to TMDB failed.")
        case .notConnected:
            return MoviesError(code: .remoteUnavailable, message: "TMDB could not be reached: the network is not connected.")
        case .transport:
            return MoviesError(code: .remoteUnavailable, message: "TMDB could not be reached: \(sentenceFragment(networkError.description)).")
        }
    }

    /// The error for a 2xx body that does not decode as `request`'s answer.
    static func undecodable(_ request: RemoteRequest) -> MoviesError {
        MoviesError(code: .invalidResponse, message: "TMDB sent \(describe(request)) that could not be decoded; nothing was cached.")
    }

    private static func validate(_ body: Data, for request: RemoteRequest) throws {
        do {
            switch request {
            case .search, .movie: break
            case .configuration: _ = try ConfigurationDTO.decode(body)
            case .movieChanges: _ = try ChangedMoviesDTO.decode(body)
            case .movieChangeKeys: _ = try MovieChangesDTO.decode(body)
            case .image:
                guard !body.isEmpty else {
                    throw MoviesError(code: .invalidResponse, message: "TMDB's image server sent an empty image.")
                }
            }
        } catch let error as MoviesError {
            throw error
        } catch {
            throw undecodable(request)
        }
    }

    private static func remoteResponse(_ response: HTTPResponse, body: Data) -> RemoteResponse {
        RemoteResponse(
            httpStatus: response.status,
            body: body,
            contentType: response.header("Content-Type"),
            etag: response.header("ETag"),
            lastModified: response.header("Last-Modified"),
            maxAge: response.maxAgeSeconds,
            age: response.ageSeconds,
            cacheStatus: (response.header("X-Cache-Status") ?? response.header("X-Cache")).map { String($0.split(separator: " ").first ?? "") }.flatMap { $0.isEmpty ? nil : $0 },
            via: response.header("Via")
        )
    }

    private static func notFoundMessage(for request: RemoteRequest) -> String {
        switch request {
        case .movie(let id, _): "TMDB has no movie with id \(id)."
        case .image(_, _, let path): "TMDB's image server has no image \(path)."
        case .search: "TMDB could not find the search resource."
        case .configuration: "TMDB could not find its configuration resource."
        case .movieChanges: "TMDB could not find its change list."
        case .movieChangeKeys(let id, _, _): "TMDB has no movie with id \(id)."
        }
    }

    private static func describe(_ request: RemoteRequest) -> String {
        switch request {
        case .search: "a search page"
        case .movie: "a movie record"
        case .configuration: "a configuration"
        case .image: "an image"
        case .movieChanges: "a change list"
        case .movieChangeKeys: "a movie's changes"
        }
    }

    private static func isImage(_ request: RemoteRequest) -> Bool {
        if case .image = request { return true }
        return false
    }

    private static func movieID(of request: RemoteRequest) -> Int? {
        if case .movie(let id, _) = request { return id }
        return nil
    }

    /// `text` trimmed and without a final period, to be embedded in a sentence.
    private static func sentenceFragment(_ text: String) -> String {
        var trimmed = Substring(text)
        while let last = trimmed.last, last.isWhitespace || last == "." { trimmed.removeLast() }
        while let first = trimmed.first, first.isWhitespace { trimmed.removeFirst() }
        return String(trimmed)
    }

    private static func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
