import Synchronization
import SystemSupport
import Varlink

/// Sequential calls (a `Search`, or a `Movie`) with `more`, on one connection or on several at
/// once (one thread each): the latency of each call's first reply (what a user sees first) and of
/// the whole call (until the reply without `continues`).
struct CallLatencyRun: Sendable {
    let socketPath: String
    let call: BenchCall
    let count: Int
    /// Connections calling at the same time, each `count` calls.
    var connections = 1

    /// Runs `count` calls per connection after 10 unmeasured ones; returns the two summaries over
    /// every connection's calls.
    func run() throws(BenchError) -> (first: LatencySummary, whole: LatencySummary) {
        let outcomes = Mutex<[Result<Samples, BenchError>]>([])
        let threads = (0..<max(1, connections)).map { _ in
            NativeThread {
                let outcome = Result { () throws(BenchError) -> Samples in try measure() }
                outcomes.withLock { $0.append(outcome) }
            }
        }
        for thread in threads { thread.join() }
        var first: [UInt64] = []
        var whole: [UInt64] = []
        for outcome in outcomes.withLock({ $0 }) {
            let samples = try outcome.get()
            first += samples.first
            whole += samples.whole
        }
        return (LatencySummary(nanoseconds: first), LatencySummary(nanoseconds: whole))
    }

    /// One connection's latencies, in nanoseconds.
    struct Samples: Sendable {
        var first: [UInt64] = []
        var whole: [UInt64] = []
    }

    /// One connection's calls.
    private func measure() throws(BenchError) -> Samples {
        let client: VarlinkClient
        do {
            client = try VarlinkClient(unixPath: socketPath, timeoutSeconds: 60)
        } catch {
            throw BenchError("connect: \(error)")
        }
        defer { client.close() }
        var samples = Samples()
        for index in 0..<(count + 10) {
            let started = MonotonicClock.now()
            var firstAt: UInt64?
            do {
                try client.call(call.method, parameters: call.parameters, more: true) { reply in
                    if firstAt == nil { firstAt = MonotonicClock.now() }
                    if let error = reply.error { throw BenchError("\(call): \(error)") }
                }
            } catch {
                throw BenchError("\(error)")
            }
            let ended = MonotonicClock.now()
            guard index >= 10 else { continue }
            samples.first.append((firstAt ?? ended) - started)
            samples.whole.append(ended - started)
        }
        return samples
    }
}
