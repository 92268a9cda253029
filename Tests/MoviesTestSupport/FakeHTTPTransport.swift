import Foundation
import Networking
import Synchronization

/// A scripted `HTTPTransport`: answers each request with the next scripted step and records every
/// request it receives. When the script runs out, the last step repeats.
public final class FakeHTTPTransport: HTTPTransport {
    /// What the fake does for one request.
    public enum Step: Sendable {
        /// Answer with this response.
        case respond(HTTPResponse)
        /// Fail with this error.
        case fail(NetworkError)
        /// Never answer (until the calling task is cancelled).
        case hang
    }

    private struct State {
        var steps: [Step]
        var last: Step
        var requests: [HTTPRequest] = []
    }

    private let state: Mutex<State>

    /// Creates a fake that plays `steps` in order (a 200 with an empty body when none are given).
    public init(_ steps: [Step] = []) {
        state = Mutex(State(steps: steps, last: steps.last ?? .respond(HTTPResponse(status: 200))))
    }

    /// Appends steps to the script.
    public func enqueue(_ steps: Step...) {
        state.withLock { state in
            state.steps.append(contentsOf: steps)
            if let last = steps.last { state.last = last }
        }
    }

    /// Every request received, in order.
    public var requests: [HTTPRequest] { state.withLock { $0.requests } }

    /// How many requests were received.
    public var requestCount: Int { state.withLock { $0.requests.count } }

    /// Plays the next step for `request`.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let step = state.withLock { state -> Step in
            state.requests.append(request)
            return state.steps.isEmpty ? state.last : state.steps.removeFirst()
        }
        switch step {
        case .respond(let response):
            return response
        case .fail(let error):
            throw error
        case .hang:
            try await Task.sleep(for: .seconds(3600))
            throw NetworkError.timedOut
        }
    }

    /// A response step with a JSON (or any UTF-8) body.
    public static func json(_ status: Int, _ body: String = "", headers: [String: String] = [:]) -> Step {
        var allHeaders = ["Content-Type": "application/json;charset=utf-8"]
        allHeaders.merge(headers) { _, new in new }
        return .respond(HTTPResponse(status: status, headers: allHeaders, body: Data(body.utf8)))
    }
}
