import Synchronization

/// One service's request to stop (after swift-service-lifecycle's graceful shutdown): the daemon's
/// `ServiceGroup` requests it of each service in reverse start order, and the service finishes
/// what it is doing (drains its calls, ends its pass) and returns. Cancellation is the group's last
/// resort, when a service has not returned within its stop timeout.
public final class GracefulShutdown: Sendable {
    private struct State {
        var requested = false
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// Creates a shutdown not requested yet.
    public init() {}

    /// Whether the shutdown was requested.
    public var isRequested: Bool { state.withLock { $0.requested } }

    /// Requests the shutdown: calls every handler once. Later requests do nothing.
    public func request() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.requested else { return [] }
            state.requested = true
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler() }
    }

    /// Calls `handler` once when the shutdown is requested (now, if it already was): for a service
    /// to wake its loop (`WakeSignal.signal`) or start its drain.
    public func onRequest(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if !state.requested { state.handlers.append(handler) }
            return state.requested
        }
        if now { handler() }
    }

    /// Returns when the shutdown is requested (at once if it was), or when the task is cancelled.
    public func wait() async {
        let requested = WakeSignal()
        onRequest { requested.signal() }
        await requested.wait()
    }
}
