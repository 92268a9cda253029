/// The mutable state of a running stub, guarded by the server's mutex.
struct ServerState: ~Copyable {
    /// Which port a socket belongs to.
    enum Role: Sendable {
        /// The TMDB port, subject to faults.
        case main
        /// The control port.
        case control
    }

    var faults = StubFaults()
    var requestCounts: [String: Int] = [:]
    var totalRequests = 0
    /// The main listening socket; nil while down or stopped.
    var mainListener: Int32?
    var controlListener: Int32?
    var port = 0
    var controlPort = 0
    var isRunning = false
    /// Open connections and the port each came in on.
    var connections: [Int32: Role] = [:]

    /// The listening socket for `role`, if open.
    func listener(for role: Role) -> Int32? {
        role == .main ? mainListener : controlListener
    }
}
