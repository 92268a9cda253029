/// Which watchlists a refresh goes through: those of some owners (every owner's when `owners` is
/// `nil`), all of them or the one named `name`.
public struct RefreshTarget: Sendable, Hashable, CustomStringConvertible {
    /// Whose lists; `nil`: everyone's.
    public var owners: Set<Owner>?
    /// The one list's name; `nil`: every list of `owners`.
    public var name: String?

    /// Creates a target.
    public init(owners: Set<Owner>? = nil, name: String? = nil) {
        self.owners = owners
        self.name = name
    }

    /// Every list of every owner (root's `movies refresh`).
    public static let everything = RefreshTarget()

    /// Whether `list` is one of the target's.
    public func includes(_ list: Watchlist) -> Bool {
        (owners?.contains(list.owner) ?? true) && (name == nil || name == list.name)
    }

    /// Whether a refresh of `other` may join a running refresh of this target: it does every list
    /// of `other` and goes through no one else's (the same owners), since whoever joins follows its
    /// progress step by step, list names and queries included.
    public func covers(_ other: RefreshTarget) -> Bool {
        owners == other.owners && (name == nil || name == other.name)
    }

    /// `all watchlists`, `watchlist 'films'`, or `the watchlists of system, uid 1000`.
    public var description: String {
        if let name { return "watchlist '\(name)'" }
        guard let owners else { return "all watchlists" }
        return "the watchlists of " + owners.map(\.description).sorted().joined(separator: ", ")
    }
}
