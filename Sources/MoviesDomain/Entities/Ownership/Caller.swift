/// The local user calling a method, with what the daemon lets them administer.
public struct Caller: Sendable, Hashable {
    /// Who calls.
    public let user: LocalUser
    /// Root, the daemon's own user or a member of the admin group (`AuthorizedGroup=`): may edit
    /// system watchlists and use the system account.
    public let isAdministrator: Bool

    /// Creates a caller.
    public init(user: LocalUser, isAdministrator: Bool) {
        self.user = user
        self.isAdministrator = isAdministrator
    }

    /// Root (uid 0): may also act on another user's personal watchlists.
    public var isRoot: Bool { user == .root }

    /// The caller's own personal owner.
    public var personal: Owner { .user(user) }

    /// Whether the caller may see and change what `owner` owns: the system's for administrators,
    /// their own, and anyone's for root.
    public func mayManage(_ owner: Owner) -> Bool {
        switch owner {
        case .system: isAdministrator
        case .user(let user): user == self.user || isRoot
        }
    }
}
