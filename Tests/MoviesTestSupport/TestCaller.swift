import MoviesDomain

/// A caller for tests, as the owner gate (`OwnerGate`) resolves them: its uid, and whether it
/// administers the daemon (root, moviesd's user, the admin group).
public struct TestCaller: Sendable, Hashable {
    public let uid: UInt32
    public let administers: Bool

    /// Creates a caller.
    public init(uid: UInt32, administers: Bool = false) {
        self.uid = uid
        self.administers = administers
    }

    /// Root, who administers.
    public static let root = TestCaller(uid: 0, administers: true)

    /// The caller's own, personal owner.
    public var personal: Owner { .user(LocalUser(uid: uid)) }

    /// The scope of this caller's call to a method that declares `reach`, naming `system`,
    /// `owner` or `allUsers`; throws what the gate refuses.
    public func scope(_ reach: OwnerReach = .managed, system: Bool? = nil, owner: UInt32? = nil, allUsers: Bool = false) throws -> OwnerScope {
        let (uid, administers) = (uid, administers)
        return try OwnerGate { peer, _ in peer == uid && administers }
            .scope(of: (uid, uid), system: system, owner: owner.map { LocalUser(uid: $0) }, allUsers: allUsers, reach: reach)
    }

    /// The scope of a peer without credentials, for a method that declares `reach` (`.own` or `.visible`).
    public static func nobody(_ reach: OwnerReach) throws -> OwnerScope {
        try OwnerGate { _, _ in false }.scope(of: nil, reach: reach)
    }
}
