import Glibc

/// Whose socket a path refused this user: when `connect` meets `EACCES`, the nearest part of the
/// path this user can look at (the socket, else its directory, else that one's parent…) says who
/// owns it. Owned by another user than root and the caller: that user's own daemon (a user service
/// in their 0700 runtime directory), which no one else may use.
struct SocketOwner: Sendable {
    /// The owner's uid of a path, `nil` when it cannot be looked at (`stat(2)`).
    let ownerOf: @Sendable (String) -> UInt32?
    /// A user's name (`uid N` when the password database has none).
    let nameOf: @Sendable (UInt32) -> String
    /// The permission bits of a path, `nil` when it cannot be looked at (`stat(2)`).
    var modeOf: @Sendable (String) -> UInt32? = { _ in nil }

    /// The real file system and password database.
    static let system = SocketOwner(ownerOf: { path in
        var info = stat()
        return stat(path, &info) == 0 ? info.st_uid : nil
    }, nameOf: { LocalUserNames.system.describe($0) }, modeOf: { path in
        var info = stat()
        return stat(path, &info) == 0 ? UInt32(info.st_mode & 0o7777) : nil
    })

    /// The name of the user, neither root nor `uid`, who owns `socketPath` or the nearest directory
    /// above it that can be looked at; `nil` when that is root's or the caller's own.
    func otherUser(of socketPath: String, callerUID uid: UInt32) -> String? {
        var path = socketPath
        while !path.isEmpty, path != "/" {
            if let owner = ownerOf(path) {
                return owner == 0 || owner == uid ? nil : nameOf(owner)
            }
            guard let slash = path.lastIndex(of: "/") else { return nil }
            path = String(path[..<slash])
        }
        return nil
    }

    /// Who may connect to `socketPath` when the file system refused this user, if the usual advice
    /// (root, the daemon's user, its admin group) is wrong: a socket whose mode gives its group no
    /// read and write access (0600) admits only its owner and root, so joining a group cannot help.
    /// `nil` when the group has access, or the socket cannot be looked at.
    func remedy(forRefused socketPath: String) -> String? {
        guard let mode = modeOf(socketPath), mode & 0o060 != 0o060 else { return nil }
        let owner = ownerOf(socketPath).map(nameOf) ?? "its owner"
        let octal = String(mode & 0o777, radix: 8)
        let who = owner == "root" ? "root" : "root or \(owner)"
        return "its mode (0\(octal)) lets only \(who) connect, whatever group you are in: run as \(who), "
            + "or ask for a socket open to a group (SocketMode= in moviesd.conf, or in moviesd.socket)"
    }

    /// The name of the user, neither root nor `uid`, whose socket at `socketPath` is theirs alone
    /// (no permission for group and others: a user service's 0600 socket); `nil` otherwise. When
    /// such a daemon refuses a caller whom file permissions let through (root), the refusal is
    /// that it serves its owner alone.
    func privateOwner(of socketPath: String, callerUID uid: UInt32) -> String? {
        guard let owner = ownerOf(socketPath), owner != 0, owner != uid,
              let mode = modeOf(socketPath), mode & 0o066 == 0 else { return nil }
        return nameOf(owner)
    }
}
