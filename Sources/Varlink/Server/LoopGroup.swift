import Synchronization

/// What a server's event loops share: who may open one more connection (the per-user and global
/// limits hold across loops), and how many connections each loop serves, so that the accepting
/// loop hands each new one to the loop with the fewest. Taken at a connection's opening and
/// closing only, never for a call.
final class LoopGroup: Sendable {
    private struct State {
        var admission = ConnectionAdmission()
        /// Open connections per loop.
        var loads: [Int]
    }

    /// Where an admitted connection goes, or why it is refused.
    enum Admission {
        case serveOn(loop: Int)
        case refused(ConnectionAdmission.Refusal)
    }

    private let state: Mutex<State>
    /// The open connections over every loop, and their buffered input.
    let counter: ConnectionCounter
    /// How many loops there are.
    let count: Int

    /// A group of `count` loops sharing `counter`.
    init(count: Int, counter: ConnectionCounter) {
        self.count = max(1, count)
        state = Mutex(State(loads: Array(repeating: 0, count: max(1, count))))
        self.counter = counter
    }

    /// Admits `peer` (counting its connection) and picks the loop with the fewest connections to
    /// serve it, or says why not.
    func admit(_ peer: PeerCredentials?, configuration: VarlinkServerConfiguration) -> Admission {
        let admission = state.withLock { state -> Admission in
            let open = state.loads.reduce(0, +)
            if let refusal = state.admission.refusal(for: peer, open: open, configuration: configuration) { return .refused(refusal) }
            state.admission.opened(peer)
            let loop = state.loads.indices.min { state.loads[$0] < state.loads[$1] } ?? 0
            state.loads[loop] += 1
            return .serveOn(loop: loop)
        }
        if case .serveOn = admission { counter.add(1) }
        return admission
    }

    /// Forgets a connection of `peer` that loop `index` closed.
    func closed(_ peer: PeerCredentials?, onLoop index: Int) {
        state.withLock { state in
            state.admission.closed(peer)
            state.loads[index] -= 1
        }
        counter.add(-1)
    }
}
