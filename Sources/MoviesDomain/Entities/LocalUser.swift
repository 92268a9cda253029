/// A user of this machine, as the kernel names the caller of a Varlink method (`SO_PEERCRED`):
/// what is private (recent searches) belongs to one.
public struct LocalUser: Sendable, Hashable, CustomStringConvertible {
    /// The user id.
    public let uid: UInt32

    /// The user with id `uid`.
    public init(uid: UInt32) {
        self.uid = uid
    }

    /// Root (uid 0), who owns what moviesd kept before history was private.
    public static let root = LocalUser(uid: 0)

    public var description: String { "uid \(uid)" }
}
