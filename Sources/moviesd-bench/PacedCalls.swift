import Glibc
import SystemSupport
import Varlink

/// `moviesd-bench pace`: Search calls at a steady rate on one connection, for a while: the
/// writes (or, with one cached query, the control calls) beside a load measurement.
struct PacedCalls: Sendable {
    let options: BenchCommand.PaceOptions

    /// Sends the calls; returns how many were sent and what failed.
    func run() throws(BenchError) -> (sent: Int, failures: [String]) {
        let client: VarlinkClient
        do {
            client = try VarlinkClient(unixPath: options.socketPath, timeoutSeconds: 60)
        } catch {
            throw BenchError("pace: connect: \(error)")
        }
        let interval = UInt64(1_000_000_000 / options.rate)
        let started = MonotonicClock.now()
        let end = started + UInt64(options.durationSeconds * 1_000_000_000)
        var sent = 0
        var failures: [String] = []
        while true {
            // On schedule, not after each answer: a slow answer is followed by the calls it delayed.
            let due = started + UInt64(sent) * interval
            guard due < end else { break }
            let now = MonotonicClock.now()
            if due > now {
                var pause = timespec(tv_sec: Int((due - now) / 1_000_000_000), tv_nsec: Int((due - now) % 1_000_000_000))
                var left = timespec()
                while nanosleep(&pause, &left) != 0 { pause = left }
            }
            sent += 1
            let target = SearchTarget(query: options.query ?? "\(options.prefix)-\(sent)", page: 1)
            do {
                try client.call("io.moviesd.Movies.Search", parameters: target.parameters(policy: options.policy)) { reply in
                    if let error = reply.error { failures.append("\(target): \(error)") }
                }
            } catch {
                failures.append("\(target): \(error)")
                break
            }
        }
        return (sent, failures)
    }
}
