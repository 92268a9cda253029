import Glibc
import Varlink

/// Decides who may call mutating methods: root, the daemon's own uid, and members of a configured
/// group (primary or supplementary). Read methods are open to every peer, as in systemd's daemons.
struct CallAuthorizer: Sendable {
    /// The daemon's own uid.
    let daemonUID: UInt32
    /// The group whose members may mutate, if configured.
    let authorizedGID: UInt32?

    /// Whether `peer` may call a mutating method.
    func mayMutate(_ peer: PeerCredentials?) -> Bool {
        guard let peer else { return false }
        if peer.uid == 0 || peer.uid == daemonUID { return true }
        guard let gid = authorizedGID else { return false }
        if peer.gid == gid { return true }
        return CallAuthorizer.supplementaryGroups(ofUID: peer.uid, primaryGID: peer.gid).contains(gid)
    }

    /// The groups of the user `uid` from the group database (`getgrouplist(3)`).
    /// `bufferSize` is the first size tried for the user's record; it doubles on `ERANGE`.
    static func supplementaryGroups(ofUID uid: UInt32, primaryGID: UInt32, bufferSize: Int = 4096) -> [UInt32] {
        var passwd = Glibc.passwd()
        var result: UnsafeMutablePointer<Glibc.passwd>?
        var buffer = [CChar](repeating: 0, count: max(1, bufferSize))
        var status = getpwuid_r(uid, &passwd, &buffer, buffer.count, &result)
        while status == ERANGE, buffer.count < 1 << 20 {
            buffer = [CChar](repeating: 0, count: buffer.count * 2)
            status = getpwuid_r(uid, &passwd, &buffer, buffer.count, &result)
        }
        guard status == 0, result != nil, let name = passwd.pw_name else { return [] }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, primaryGID, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, primaryGID, &groups, &count) >= 0 else { return [] }
        }
        return Array(groups.prefix(Int(count)))
    }
}
