import SystemSupport
import Varlink

/// Sequential calls (a `Search`, or a `Movie`) on one connection, with `more`: the latency of each
/// call's first reply (what a user sees first) and of the whole call (until the reply without
/// `continues`).
struct CallLatencyRun: Sendable {
    let socketPath: String
    let call: BenchCall
    let count: Int

    /// Runs `count` calls after 10 unmeasured ones; returns the two summaries.
    func run() throws(BenchError) -> (first: LatencySummary, whole: LatencySummary) {
        let client: VarlinkClient
        do {
            client = try VarlinkClient(unixPath: socketPath, timeoutSeconds: 60)
        } catch {
            throw BenchError("connect: \(error)")
        }
        defer { client.close() }
        var first: [UInt64] = []
        var whole: [UInt64] = []
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
            first.append((firstAt ?? ended) - started)
            whole.append(ended - started)
        }
        return (LatencySummary(nanoseconds: first), LatencySummary(nanoseconds: whole))
    }
}
