import Glibc
import MoviesData

/// Runs the daemon's services, after swift-service-lifecycle's `ServiceGroup`: started in order,
/// stopped in reverse order when a shutdown signal arrives or when one of them dies (which is
/// logged, naming it, and ends the daemon with status 1).
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

    /// Starts every service, waits for a shutdown signal from `signals` or a service's death,
    /// then stops every service in reverse order (cancels it and waits for it to return) before
    /// stopping the next.
    func run(signals: AsyncStream<Int32>) async -> Outcome {
        let (ended, sink) = AsyncStream<Event>.makeStream()
        var tasks: [Task<Void, Never>] = []
        for (index, service) in services.enumerated() {
            tasks.append(Task {
                var failure: String?
                do { try await service.run() } catch { failure = "\(error)" }
                sink.yield(.ended(index: index, failure: failure))
            })
        }
        let listener = Task {
            for await signal in signals { sink.yield(.signal(signal)) }
        }
        let outcome = await firstEnd(of: ended)
        willStop()
        for task in tasks.reversed() {
            task.cancel()
            await task.value
        }
        listener.cancel()
        sink.finish()
        return outcome
    }

    private func firstEnd(of ended: AsyncStream<Event>) async -> Outcome {
        for await event in ended {
            switch event {
            case .signal(let number) where shutdownSignals.contains(number):
                events.record(DataEvent(.notice, "lifecycle.signal", "received signal \(number); shutting down"))
                return .signal(number)
            case .signal(let number):
                otherSignal(number)
            case .ended(let index, let failure):
                let name = services[index].name
                let why = failure.map { "failed: \($0)" } ?? "returned"
                events.record(DataEvent(.error, "lifecycle.died", "the \(name) stopped unexpectedly (\(why)); shutting down"))
                return .died(name)
            }
        }
        // Unreachable while the group holds `sink`; treated as a request to stop.
        return .signal(SIGTERM)
    }
}
