/// One long-running part of the daemon, after swift-service-lifecycle's `Service`: it runs until
/// its task is cancelled, which asks it to stop gracefully (drain, finish, close) and return.
/// Returning or throwing before that means it died, and the daemon stops.
struct LifecycleService: Sendable {
    /// What the log calls it, e.g. `Varlink server`.
    let name: String
    /// Runs until cancelled; returns (or throws) early only when it failed.
    let run: @Sendable () async throws -> Void

    /// Creates a service.
    init(_ name: String, run: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.run = run
    }

    /// Suspends until the calling task is cancelled: the `run` of a service with nothing to do
    /// but wait for its stop.
    static func untilCancelled() async {
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
    }
}
