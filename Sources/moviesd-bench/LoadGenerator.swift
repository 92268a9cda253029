import Glibc
import Synchronization
import SystemSupport

/// A closed-loop Varlink load generator, like `wrk` for HTTP: `connections` connections spread
/// over `threads` threads, each connection with exactly one call in flight; a reply's latency is
/// from the first byte sent to the NUL that ends the reply. Runs for a fixed duration.
struct LoadGenerator: Sendable {
    /// What to run.
    struct Plan: Sendable {
        var socketPath: String
        /// Encoded calls (each ending with NUL), sent round-robin.
        var messages: [[UInt8]]
        var connections: Int
        var threads: Int
        var durationSeconds: Double
        /// Checks a complete reply; returns why it is wrong, or nil. Run on each connection's
        /// first reply only (parsing every reply would load the machine being measured).
        var check: @Sendable ([UInt8]) -> String?
    }

    /// What one thread measured.
    struct ThreadResult: Sendable {
        var latencies: [UInt64] = []
        var failure: String?
        var replyBytes = 0
    }

    let plan: Plan

    /// Runs the plan and merges every thread's results.
    func run() throws(BenchError) -> LoadResult {
        var groups: [[RawVarlinkConnection]] = Array(repeating: [], count: max(1, min(plan.threads, plan.connections)))
        for index in 0..<plan.connections {
            groups[index % groups.count].append(try RawVarlinkConnection(path: plan.socketPath))
        }
        let results = ResultBox(count: groups.count)
        let startedAt = MonotonicClock.now()
        let deadline = startedAt + UInt64(plan.durationSeconds * 1_000_000_000)
        let threads = groups.enumerated().map { index, group in
            let connections = UncheckedConnections(group)
            let plan = plan
            return NativeThread {
                results.set(index, LoadGenerator.drive(connections.value, plan: plan, offset: index, until: deadline))
            }
        }
        for thread in threads { thread.join() }
        let elapsed = Double(MonotonicClock.now() - startedAt) / 1_000_000_000
        let merged = results.all()
        if let failure = merged.compactMap(\.failure).first { throw BenchError(failure) }
        let latencies = merged.flatMap(\.latencies)
        return LoadResult(
            connections: plan.connections, threads: groups.count, seconds: min(elapsed, plan.durationSeconds),
            latency: LatencySummary(nanoseconds: latencies), replyBytes: merged.map(\.replyBytes).max() ?? 0)
    }

    /// One thread's loop over its connections.
    private static func drive(_ connections: [RawVarlinkConnection], plan: Plan, offset: Int, until deadline: UInt64) -> ThreadResult {
        var result = ThreadResult()
        result.latencies.reserveCapacity(1 << 20)
        var next = offset
        var polls = connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        var inFlight = 0
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 17, alignment: 16)
        defer { scratch.deallocate() }
        do {
            for connection in connections {
                connection.keepsReply = true
                try connection.send(plan.messages[next % plan.messages.count])
                next += 1
                inFlight += 1
            }
            while inFlight > 0 {
                let ready = poll(&polls, nfds_t(polls.count), 1000)
                if ready < 0, errno == EINTR { continue }
                guard ready > 0 else { throw BenchError("no reply within 1 s") }
                for index in polls.indices where polls[index].revents != 0 {
                    polls[index].revents = 0
                    let connection = connections[index]
                    guard try connection.receive(into: scratch) else { continue }
                    let now = MonotonicClock.now()
                    inFlight -= 1
                    if now > deadline { continue }
                    result.latencies.append(now - connection.sentAt)
                    result.replyBytes = connection.lastReplySize
                    if connection.keepsReply {
                        connection.keepsReply = false
                        if let wrong = plan.check(connection.reply) { throw BenchError(wrong) }
                    }
                    try connection.send(plan.messages[next % plan.messages.count])
                    next += 1
                    inFlight += 1
                }
            }
        } catch {
            result.failure = "\(error)"
        }
        for connection in connections { connection.close() }
        return result
    }
}

/// Connections handed to exactly one thread (never shared afterwards).
private struct UncheckedConnections: @unchecked Sendable {
    let value: [RawVarlinkConnection]
    init(_ value: [RawVarlinkConnection]) { self.value = value }
}

/// Per-thread results, each written once by its thread.
private final class ResultBox: Sendable {
    private let results: Mutex<[LoadGenerator.ThreadResult]>

    init(count: Int) {
        results = Mutex(Array(repeating: LoadGenerator.ThreadResult(), count: count))
    }

    func set(_ index: Int, _ result: LoadGenerator.ThreadResult) {
        results.withLock { $0[index] = result }
    }

    func all() -> [LoadGenerator.ThreadResult] {
        results.withLock { $0 }
    }
}
