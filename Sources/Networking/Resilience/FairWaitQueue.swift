/// The requests waiting for a token, served by `RateLimitLane`: every interactive request before
/// any background one, and within a priority round-robin between uids (one request of each uid
/// that waits, in the order they started waiting, then again), first come first served per uid.
struct FairWaitQueue<Waiter> {
    private struct LaneKey: Hashable {
        let uid: UInt32?
        let priority: RateLimitLane.Priority
    }

    /// Each lane's waiters, oldest first.
    private var waiters: [LaneKey: [(id: UInt64, waiter: Waiter)]] = [:]
    /// Per priority, the lanes with waiters in the order they take their next turn.
    private var turns: [RateLimitLane.Priority: [LaneKey]] = [:]

    /// Whether nobody waits.
    var isEmpty: Bool { waiters.isEmpty }

    /// How many wait.
    var count: Int { waiters.values.reduce(0) { $0 + $1.count } }

    /// Adds `waiter` (known by `id`) at the end of its lane.
    mutating func append(_ waiter: Waiter, id: UInt64, lane: RateLimitLane) {
        let key = LaneKey(uid: lane.uid, priority: lane.priority)
        if waiters[key] == nil { turns[lane.priority, default: []].append(key) }
        waiters[key, default: []].append((id, waiter))
    }

    /// The waiter whose turn it is, removed; its lane goes to the back of its priority's turns.
    mutating func next() -> Waiter? {
        for priority in RateLimitLane.Priority.allCases {
            guard var order = turns[priority], !order.isEmpty else { continue }
            let key = order.removeFirst()
            guard var queue = waiters[key], !queue.isEmpty else { continue }
            let first = queue.removeFirst()
            if queue.isEmpty {
                waiters[key] = nil
            } else {
                waiters[key] = queue
                order.append(key)
            }
            turns[priority] = order
            return first.waiter
        }
        return nil
    }

    /// Removes the waiter known by `id`, if it still waits.
    mutating func remove(id: UInt64) -> Waiter? {
        for (key, queue) in waiters {
            guard let index = queue.firstIndex(where: { $0.id == id }) else { continue }
            var remaining = queue
            let removed = remaining.remove(at: index)
            if remaining.isEmpty {
                waiters[key] = nil
                turns[key.priority]?.removeAll { $0 == key }
            } else {
                waiters[key] = remaining
            }
            return removed.waiter
        }
        return nil
    }
}
