import MoviesDomain
import Synchronization
import Varlink

/// Counts the answers the service's tasks send, by method and where each came from: the
/// `origin` of its `freshness` (`cache`, `network`, `revalidated`, `local_index`), or
/// `offline_fallback` for a cached answer sent because TMDB failed or was late (`remoteError` set).
///
/// Middleware of the router, around every method: a method whose replies carry `freshness` is
/// counted without a line of its own. Answers from memory, made on the event loop, are counted
/// there (`VarlinkMethodMetrics.answeredAtOnce`): this middleware does nothing on that path.
final class AnswerTally: VarlinkEventLoopMiddleware {
    /// Where an answer came from, as the metrics name it.
    enum Origin: String, Sendable, CaseIterable {
        /// The service's memory of cached entries (counted by the event loop).
        case memory
        /// Read from the cache database.
        case cache
        /// TMDB confirmed the cached copy (304).
        case revalidated
        /// TMDB's answer.
        case network
        /// The local search index of cached movies.
        case localIndex = "local_index"
        /// Cached data answered because TMDB failed or did not answer in time.
        case offlineFallback = "offline_fallback"
    }

    /// One method and origin.
    struct Key: Sendable, Hashable {
        let method: String
        let origin: Origin
    }

    private let counts = Mutex<[Key: UInt64]>([:])

    /// The answers counted so far (not those from memory).
    var snapshot: [Key: UInt64] { counts.withLock { $0 } }

    func handle(
        _ call: VarlinkCall, route: VarlinkRoute, replies: VarlinkReplyWriter, next: VarlinkResponder
    ) async throws(VarlinkError) -> [String: JSONValue] {
        let method = call.method
        let observed = replies.observing { [self] parameters in count(parameters, of: method) }
        let reply = try await next(call, observed)
        count(reply, of: method)
        return reply
    }

    /// Nothing on the event loop: its answers are the loop's own count.
    func answerAtOnce(_ call: VarlinkCall, route: VarlinkRoute, next: (VarlinkCall) -> VarlinkPreparedReply?) -> VarlinkPreparedReply? {
        next(call)
    }

    /// Counts `parameters` when they are an answer (they carry `freshness`).
    private func count(_ parameters: [String: JSONValue], of method: String) {
        guard let origin = Self.origin(of: parameters) else { return }
        counts.withLock { $0[Key(method: method, origin: origin), default: 0] &+= 1 }
    }

    /// The origin of an answer's `freshness` (an object, or its JSON text as the service splices
    /// it), `nil` for a reply that carries none.
    static func origin(of parameters: [String: JSONValue]) -> Origin? {
        guard var freshness = parameters["freshness"] else { return nil }
        if case .raw(let bytes) = freshness {
            guard let parsed = try? JSONValue.parse(bytes) else { return nil }
            freshness = parsed
        }
        guard let text = freshness["origin"]?.stringValue, let origin = Freshness.Origin(rawValue: text) else { return nil }
        let remoteError = freshness["remoteError"].map { !$0.isNull } ?? false
        switch origin {
        case .cache: return remoteError ? .offlineFallback : .cache
        case .network: return .network
        case .revalidated: return .revalidated
        case .localIndex: return .localIndex
        }
    }
}
