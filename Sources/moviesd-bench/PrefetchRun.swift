import Glibc
import Synchronization
import SystemSupport
import Varlink

/// The cold-prefetch measurement: `targets`, distinct calls (searches, movies) sent through the
/// daemon by `concurrency` clients at once; the wall time until the last answer.
struct PrefetchRun: Sendable {
    let socketPath: String
    let targets: [BenchCall]
    let concurrency: Int

    /// Runs every query once; returns (seconds, failures).
    func run() throws(BenchError) -> (seconds: Double, failures: [String]) {
        let queue = WorkQueue(targets)
        let started = MonotonicClock.now()
        let threads = (0..<max(1, concurrency)).map { _ in
            NativeThread { [socketPath] in
                let client: VarlinkClient
                do {
                    client = try VarlinkClient(unixPath: socketPath, timeoutSeconds: 60)
                } catch {
                    queue.fail("connect: \(error)")
                    return
                }
                while let target = queue.next() {
                    do {
                        try client.call(target.method, parameters: target.parameters) { reply in
                            if let error = reply.error { queue.fail("\(target): \(error) \(String(decoding: reply.parameters.serialized(), as: UTF8.self))") }
                        }
                    } catch {
                        queue.fail("\(target): \(error)")
                        return
                    }
                }
            }
        }
        for thread in threads { thread.join() }
        let seconds = Double(MonotonicClock.now() - started) / 1_000_000_000
        return (seconds, queue.failures())
    }
}

/// The queries still to send, and the failures seen, shared by the client threads.
private final class WorkQueue: Sendable {
    private let pending: Mutex<[BenchCall]>
    private let failed = Mutex<[String]>([])

    init(_ items: [BenchCall]) {
        pending = Mutex(items.reversed())
    }

    func next() -> BenchCall? {
        pending.withLock { $0.popLast() }
    }

    func fail(_ description: String) {
        failed.withLock { $0.append(description) }
    }

    func failures() -> [String] {
        failed.withLock { $0 }
    }
}
