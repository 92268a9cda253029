import Dispatch
import Synchronization
import SystemSupport

/// A task executor with a fixed number of threads of its own, first come first served: a test that
/// must show code does not hold a thread while it waits runs its tasks here (with
/// `withTaskExecutorPreference`), where a held thread starves the rest at once, without starving
/// Swift's shared cooperative pool and the other tests running on it.
///
/// Call ``shutdown()`` when the tasks have finished; it joins the threads.
public final class DedicatedThreadsExecutor: TaskExecutor, Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    /// Counts the jobs queued (and, at shutdown, one wake-up per thread).
    private let queued = DispatchSemaphore(value: 0)
    private let stopping = Atomic(false)
    private let threads = Mutex<[NativeThread]>([])

    /// Starts `threadCount` threads (at least 1).
    public init(threadCount: Int) {
        let started = (0..<max(1, threadCount)).map { _ in NativeThread { self.work() } }
        threads.withLock { $0 = started }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        queued.signal()
    }

    /// Stops the threads once the queue is empty and waits for them.
    public func shutdown() {
        stopping.store(true, ordering: .releasing)
        let running = threads.withLock { $0 }
        for _ in running { queued.signal() }
        for thread in running { thread.join() }
    }

    private func work() {
        while true {
            queued.wait()
            let next = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            guard let next else {
                if stopping.load(ordering: .acquiring) { return }
                continue
            }
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
