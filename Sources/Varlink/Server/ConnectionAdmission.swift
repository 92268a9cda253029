/// Who may open one more connection: nobody the server cannot name, then a global cap with a
/// reserve for privileged users, and a per-user cap, so one local user holding connections cannot
/// lock the others (or root) out.
///
/// Owned by the event loop thread.
struct ConnectionAdmission {
    /// Why a connection is refused.
    enum Refusal: Equatable {
        /// A limit was hit: its value, a sentence naming it, and which limit it was.
        case limit(Int, reason: String, cause: VarlinkServerMetrics.Refusal)
        /// The peer's uid names no one here (``VarlinkServerConfiguration/unmappedPeerUID``).
        case unnamedPeer

        /// The limit hit, for a refusal by limit.
        var limit: Int? {
            if case .limit(let limit, _, _) = self { limit } else { nil }
        }

        /// Which limit (or the unnamed peer) refused the connection, as the server's metrics count it.
        var cause: VarlinkServerMetrics.Refusal {
            switch self {
            case .limit(_, _, let cause): cause
            case .unnamedPeer: .unnamedPeer
            }
        }
    }

    /// Open connections by peer uid (`UInt32.max` for a peer without credentials).
    private(set) var openByUser: [UInt32: Int] = [:]

    /// `nil` when `peer` may open one more connection while `open` are open; otherwise why not.
    func refusal(for peer: PeerCredentials?, open: Int, configuration: VarlinkServerConfiguration) -> Refusal? {
        let uid = peer?.uid ?? UInt32.max
        if let unmapped = configuration.unmappedPeerUID, peer?.uid == unmapped { return .unnamedPeer }
        let privileged = peer.map { configuration.privilegedUIDs.contains($0.uid) } ?? false
        let total = configuration.maxConnections
        if open >= total {
            return .limit(total, reason: "the server holds its maximum of \(total) connections", cause: .serverFull)
        }
        let shared = max(0, total - configuration.reservedConnections)
        if !privileged, open >= shared {
            return .limit(shared, reason: "the server holds \(open) connections; the rest are kept for root and the service's own user", cause: .reserved)
        }
        let perUser = configuration.maxConnectionsPerUser
        if !privileged, perUser > 0, openByUser[uid, default: 0] >= perUser {
            return .limit(perUser, reason: "user \(uid) already holds \(perUser) connections, the most one user may", cause: .perUser)
        }
        return nil
    }

    /// Counts a connection `peer` opened.
    mutating func opened(_ peer: PeerCredentials?) {
        openByUser[peer?.uid ?? UInt32.max, default: 0] += 1
    }

    /// Forgets a connection `peer` closed.
    mutating func closed(_ peer: PeerCredentials?) {
        let uid = peer?.uid ?? UInt32.max
        let left = openByUser[uid, default: 1] - 1
        openByUser[uid] = left > 0 ? left : nil
    }
}
