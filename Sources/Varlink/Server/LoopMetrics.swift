import SystemSupport

/// What one event loop counts: plain integers and fixed arrays, touched by the loop thread alone
/// (``VarlinkServerMetrics`` is a copy of them, handed out when the loop is asked).
///
/// Built with `-DMOVIESD_NO_METRICS`, every method here does nothing: the benchmark compares the
/// two builds (scripts/bench).
struct LoopMetrics {
    /// The slot of calls to methods the server does not serve.
    static let otherSlot = 0

    private var slotByMethod: [String: Int] = [:]
    /// The method of the last lookup and its slot: a client's calls are mostly of one method, and
    /// comparing the name is cheaper than hashing it.
    private var lastMethod = ""
    private var lastSlot = 0
    private var methods = [VarlinkMethodMetrics(method: VarlinkMethodMetrics.otherMethod)]
    private var accepted: UInt64 = 0
    private var refused = InlineArray<4, UInt64>(repeating: 0)

    /// The slot counting calls of `method`, a method the server serves (the set is bounded by the
    /// interface files, so the table is too).
    @inline(__always)
    mutating func slot(servedMethod method: String) -> Int {
        #if MOVIESD_NO_METRICS
        return Self.otherSlot
        #else
        if method == lastMethod { return lastSlot }
        let slot: Int
        if let known = slotByMethod[method] {
            slot = known
        } else {
            methods.append(VarlinkMethodMetrics(method: method))
            slot = methods.count - 1
            slotByMethod[method] = slot
        }
        (lastMethod, lastSlot) = (method, slot)
        return slot
        #endif
    }

    /// A call answered at once on the loop, its message read at `startedAt`: its first reply
    /// (`final`: its only one) was just queued; `fromMemory`: by the service's answer from memory
    /// (not by the server itself); `failure`: the error replied, if any.
    @inline(__always)
    mutating func answeredOnLoop(slot: Int, startedAt: UInt64, final: Bool, fromMemory: Bool, failure: String? = nil) {
        #if !MOVIESD_NO_METRICS
        let elapsed = MonotonicClock.now() &- startedAt
        if fromMemory { methods[slot].answeredAtOnce &+= 1 }
        methods[slot].firstReply.record(nanoseconds: elapsed)
        if final { count(slot: slot, elapsed: elapsed, failure: failure) }
        #endif
    }

    /// The first reply of a call running in a task, its message read at `startedAt`, was queued.
    @inline(__always)
    mutating func firstReply(slot: Int, startedAt: UInt64) {
        #if !MOVIESD_NO_METRICS
        methods[slot].firstReply.record(nanoseconds: MonotonicClock.now() &- startedAt)
        #endif
    }

    /// A call whose message was read at `startedAt` ended, with the error `failure` (or
    /// ``VarlinkMethodMetrics/disconnected``) or none; `withFirstReply`: its final reply is also
    /// its first.
    @inline(__always)
    mutating func ended(slot: Int, startedAt: UInt64, failure: String?, withFirstReply: Bool) {
        #if !MOVIESD_NO_METRICS
        let elapsed = MonotonicClock.now() &- startedAt
        if withFirstReply { methods[slot].firstReply.record(nanoseconds: elapsed) }
        count(slot: slot, elapsed: elapsed, failure: failure)
        #endif
    }

    @inline(__always)
    private mutating func count(slot: Int, elapsed: UInt64, failure: String?) {
        methods[slot].duration.record(nanoseconds: elapsed)
        if let failure {
            methods[slot].failed[failure, default: 0] &+= 1
        } else {
            methods[slot].succeeded &+= 1
        }
    }

    /// A connection was accepted.
    mutating func accepted(_ count: UInt64 = 1) {
        #if !MOVIESD_NO_METRICS
        accepted &+= count
        #endif
    }

    /// A connection was refused for `reason`.
    mutating func refused(_ reason: VarlinkServerMetrics.Refusal) {
        #if !MOVIESD_NO_METRICS
        let index = VarlinkServerMetrics.Refusal.allCases.firstIndex(of: reason) ?? 0
        refused[index] &+= 1
        #endif
    }

    /// A copy of the counts, with `open` connections open now.
    func snapshot(openConnections open: Int) -> VarlinkServerMetrics {
        var snapshot = VarlinkServerMetrics()
        snapshot.methods = methods.filter { $0.calls > 0 || $0.answeredAtOnce > 0 || !$0.firstReply.isEmpty }.sorted { $0.method < $1.method }
        snapshot.openConnections = open
        snapshot.acceptedConnections = accepted
        for (index, reason) in VarlinkServerMetrics.Refusal.allCases.enumerated() where refused[index] > 0 {
            snapshot.refusedConnections[reason] = refused[index]
        }
        return snapshot
    }
}
