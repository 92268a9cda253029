import SystemSupport

/// One long-running part of the daemon, after swift-service-lifecycle's `Service`: it runs until
/// its `GracefulShutdown` is requested, then stops gracefully (drains, finishes its step) and
/// returns. Returning or throwing before that means it died, and the daemon stops. Not returned
/// within `stopTimeoutSeconds` of the request, it is cancelled: at once for a service whose work
/// stops cleanly when cancelled (between two steps, nothing lost), whose timeout is 0.
struct LifecycleService: Sendable {
    /// What the log calls it, e.g. `Varlink server`.
    let name: String
    /// How long the service may take to return once asked to, before it is cancelled (0: at once).
    let stopTimeoutSeconds: Int
    /// Runs until the shutdown is requested; returns (or throws) early only when it failed.
    let run: @Sendable (GracefulShutdown) async throws -> Void

    /// Creates a service (2 s to stop by default: the daemon's services stop one after another,
    /// within systemd's `TimeoutStopSec=30s`).
    init(_ name: String, stopTimeoutSeconds: Int = 2, run: @escaping @Sendable (GracefulShutdown) async throws -> Void) {
        self.name = name
        self.stopTimeoutSeconds = stopTimeoutSeconds
        self.run = run
    }
}
