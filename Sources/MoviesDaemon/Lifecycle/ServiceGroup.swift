import Glibc
import MoviesData
import SystemSupport

/// Runs the daemon's services in one task group, after swift-service-lifecycle's `ServiceGroup`:
/// started in order; when a shutdown signal arrives or one of them dies (which is logged, naming
/// it, and ends the daemon with status 1), each still running is asked to stop gracefully
/// (`GracefulShutdown`), in reverse order, the next once it has returned; one that does not
/// return within its stop timeout is cancelled.
struct ServiceGroup: Sendable {
    /// How the group ended.
    enum Outcome: Equatable, Sendable {
        /// A shutdown signal: exit 0.
        case signal(Int32)
        /// The service with this name returned or threw before it was asked to stop: exit 1.
        case died(String)

        /// The process exit status for this outcome.
        var exitStatus: Int32 {
            switch self {
            case .signal: 0
            case .died: 1
            }
        }
    }

    private enum Event: Sendable {
        case signal(Int32)
        case signalsEnded
        case ended(index: Int, failure: String?)
    }

    /// The services, in start order.
    let services: [LifecycleService]
    /// Signals that stop the group; any other is passed to `otherSignal`.
    var shutdownSignals: Set<Int32> = [SIGTERM, SIGINT]
    /// What to do on a signal that does not stop the group (e.g. log that SIGHUP reloads nothing).
    var otherSignal: @Sendable (Int32) -> Void = { _ in }
    /// Where the group says why it stops.
    let events: any EventLog
    /// Called once the group has decided to stop, before the first service is asked to (e.g. tell
    /// systemd `STOPPING=1`).
    var willStop: @Sendable () -> Void = {}
    /// The clock of the stop timeouts (tests pass a virtual one).
    var sleep: @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }

    /// Starts every service, waits for a shutdown signal from `signals` or a service's death,
    /// then stops every service still running in reverse order.
    func run(signals: AsyncStream<Int32>) async -> Outcome {
        let shutdowns = services.map { _ in GracefulShutdown() }
        return await withTaskGroup(of: Event.self) { group in
            for (index, service) in services.enumerated() {
                group.addTask { .ended(index: index, failure: await run(service, until: shutdowns[index])) }
            }
            group.addTask { [shutdownSignals, otherSignal] in
                for await number in signals {
                    if shutdownSignals.contains(number) { return .signal(number) }
                    otherSignal(number)
                }
                return .signalsEnded
            }
            var running = Set(services.indices)
            var outcome: Outcome?
            while outcome == nil, let event = await group.next() {
                switch event {
                case .signal(let number):
                    events.record(DataEvent(.notice, "lifecycle.signal", "received signal \(number); shutting down"))
                    outcome = .signal(number)
                case .signalsEnded:
                    break
                case .ended(let index, let failure):
                    running.remove(index)
                    let why = failure.map { "failed: \($0)" } ?? "returned"
                    events.record(DataEvent(.error, "lifecycle.died", "the \(services[index].name) stopped unexpectedly (\(why)); shutting down"))
                    outcome = .died(services[index].name)
                }
            }
            willStop()
            for index in services.indices.reversed() where running.contains(index) {
                shutdowns[index].request()
                while running.contains(index), let event = await group.next() {
                    guard case .ended(let ended, let failure) = event else { continue }
                    running.remove(ended)
                    if let failure { events.record(DataEvent(.error, "lifecycle.stop-failed", "the \(services[ended].name) failed as it stopped: \(failure)")) }
                }
            }
            group.cancelAll()  // the signal listener
            return outcome ?? .signal(SIGTERM)
        }
    }

    /// Runs `service` until it returns; once its shutdown is requested, cancels it if it has not
    /// returned within its stop timeout (at once when that is 0); what it threw, if anything.
    private func run(_ service: LifecycleService, until shutdown: GracefulShutdown) async -> String? {
        await withTaskGroup(of: String??.self) { group in
            group.addTask {
                do { try await service.run(shutdown) } catch { return .some("\(error)") }
                return .some(nil)
            }
            group.addTask { [sleep, events] in
                await shutdown.wait()
                let timeout = service.stopTimeoutSeconds
                guard !Task.isCancelled, timeout > 0, (try? await sleep(Double(timeout))) != nil else { return nil }
                events.record(DataEvent(.warning, "lifecycle.overdue", "the \(service.name) did not stop within \(timeout) s; cancelling it"))
                return nil
            }
            var failure: String?
            for await ended in group {
                if let ended { failure = ended }
                // The service returned: the timer stops. The timer ended: the service is cancelled.
                group.cancelAll()
            }
            return failure
        }
    }
}
