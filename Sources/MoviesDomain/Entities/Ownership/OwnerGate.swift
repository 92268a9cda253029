/// The owner gate: the one place that decides what a call may touch. The router asks it
/// once per call, with the caller's credentials, the owner the call names and what its method
/// declares (`OwnerReach`), and hands the method the `OwnerScope` it answers, which nothing else
/// can make: a use case cannot be handed the system's or another user's data by mistake.
public struct OwnerGate: Sendable {
    private let administers: @Sendable (_ uid: UInt32, _ gid: UInt32) -> Bool

    /// A gate where `administers` says who administers the daemon: root, its own user and the
    /// admin group (`AuthorizedGroup=`) change the system's lists and use the system's account.
    public init(administers: @escaping @Sendable (_ uid: UInt32, _ gid: UInt32) -> Bool) {
        self.administers = administers
    }

    /// What a call of `peer` (`nil`: no credentials) may touch, for a method that declares
    /// `reach`, when it names the system's or the caller's own (`system`), a user's (`owner`) or
    /// every user's lists (`allUsers`).
    /// - Throws: `permissionDenied` when the method changes an owner's data and the peer has no
    ///   credentials, or the call names what the caller may not manage (the system's without
    ///   administering it, another user's or everyone's without being root) or what its method
    ///   does not touch.
    public func scope(
        of peer: (uid: UInt32, gid: UInt32)?, system: Bool? = nil, owner: LocalUser? = nil, allUsers: Bool = false, reach: OwnerReach
    ) throws(MoviesError) -> OwnerScope {
        let user = peer.map { LocalUser(uid: $0.uid) }
        let names = system != nil || owner != nil
        let allowed = switch reach {
        case .shared, .own: !names && !allUsers
        case .visible: !names && (!allUsers || user == .root)
        case .managed: user != nil && !allUsers
        }
        let named = owner.map(Owner.user) ?? system.flatMap { $0 ? .system : user.map(Owner.user) }
        let scope = OwnerScope(
            user: reach == .shared ? nil : user, named: named, everyone: allUsers,
            administers: peer.map { administers($0.uid, $0.gid) } ?? false, reach: reach)
        guard allowed, named.map(scope.mayManage) ?? true else {
            throw .permissionDenied("only root, moviesd's user and the admin group touch the system's data, and only root another user's")
        }
        return scope
    }
}
