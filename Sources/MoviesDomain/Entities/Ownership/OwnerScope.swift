/// What one call may touch: made by the owner gate alone (`OwnerGate`), once per call, and handed
/// to the method, whose use cases take nothing else to say whose data they read or change. Every
/// rule of who may see or change what is here: a system watchlist is listed to everyone and
/// changed by administrators (root, moviesd's user, the admin group), whose the system's account
/// is; a user's lists, history and account are that user's, and root's when a call names them.
public struct OwnerScope: Sendable, Hashable {
    /// The caller; `nil` for a peer without credentials, and for a method that touches no owner's data.
    public let user: LocalUser?
    /// The owner the call names (`system`, `owner`), which the caller may manage; `nil`: none.
    public let named: Owner?
    /// Root's `allUsers`: every owner's lists.
    public let everyone: Bool
    let administers: Bool
    let reach: OwnerReach

    /// The caller's own, personal owner.
    public var own: Owner? { user.map(Owner.user) }

    /// Whether the call may change (and follow) what `owner` owns: the caller's own; the system's
    /// for administrators and another user's for root, unless its method touches the caller's own alone.
    public func mayManage(_ owner: Owner) -> Bool {
        guard let user else { return false }
        switch owner {
        case .system: return administers && reach != .own
        case .user(let other): return other == user || (user == .root && reach != .own)
        }
    }

    /// The owners whose lists a listing shows: the system's and the caller's own; every owner's
    /// (`nil`) for root's `allUsers`.
    public var listed: Set<Owner>? { everyone ? nil : Set([Owner.system] + (own.map { [$0] } ?? [])) }

    /// The owners a list name may mean when the call names none, first the first looked at: the
    /// caller's own, then the system's for administrators.
    public var administered: [Owner] { (own.map { [$0] } ?? []) + (own != nil && mayManage(.system) ? [.system] : []) }

    /// Whose lists a refresh without a list name goes through: the named owner's; else every
    /// owner's for root (`nil`), the administered ones for others.
    public var refreshed: Set<Owner>? { named.map { [$0] } ?? (user == .root ? nil : Set(administered)) }

    /// Whose pins the cache's counts show the caller: root's, everyone's (`nil`); anyone else's,
    /// the system's and their own, never what another user's private lists hold.
    public var pinsSeen: Set<Owner>? { user == .root ? nil : Set([Owner.system] + (own.map { [$0] } ?? [])) }

    /// The account a call uses: the one it names (`system: true`), else the caller's own.
    public var account: Owner? { named ?? own }

    /// Whether the caller may follow a refresh of `target` (its progress and first error): root
    /// always, others when they may change every owner's lists it goes through.
    public func mayFollow(_ target: RefreshTarget) -> Bool {
        guard let owners = target.owners else { return user == .root }
        return owners.allSatisfy(mayManage)
    }

    /// Whether the caller may know that a refresh of `target` runs and how the last one went (its
    /// counts and times, not its first error): as for listing, the system's lists are everyone's.
    public func maySee(_ target: RefreshTarget) -> Bool {
        guard let owners = target.owners else { return user == .root }
        return owners.allSatisfy { $0 == .system ? reach == .visible || reach == .managed : mayManage($0) }
    }
}
