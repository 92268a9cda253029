import Glibc

/// The group whose members, besides root and the daemon's own user, may make mutating calls
/// (`AuthorizedGroup=`), given by name or by numeric id.
public enum AuthorizedGroup: Sendable, Hashable, CustomStringConvertible {
    /// A group name, resolved with getgrnam(3) at start.
    case name(String)
    /// A numeric group id.
    case id(UInt32)

    /// Parses a group name (`[A-Za-z_][A-Za-z0-9_.-]*`, optionally ending in `$`) or a decimal gid.
    public init(parsing text: String) throws(ConfigurationValueError) {
        if let gid = UInt32(text) {
            self = .id(gid)
            return
        }
        let first = text.first
        let validFirst = first.map { $0.isASCII && ($0.isLetter || $0 == "_") } ?? false
        let validRest = text.dropFirst().enumerated().allSatisfy { offset, character in
            character.isASCII && (character.isLetter || character.isNumber || "_.-".contains(character))
                || (character == "$" && offset == text.count - 2)
        }
        guard validFirst, validRest, text.count <= 32 else {
            throw ConfigurationValueError("expected a group name or a numeric gid")
        }
        self = .name(text)
    }

    /// The group id, looking the name up in the group database; nil when it has no such group
    /// (``DaemonConfiguration/resolvedAuthorizedGroupID()`` names the file and line that set it).
    public func groupID() -> UInt32? {
        switch self {
        case .id(let gid):
            return gid
        case .name(let name):
            var group = group()
            var result: UnsafeMutablePointer<group>?
            var buffer = [CChar](repeating: 0, count: 16 * 1024)
            let status = getgrnam_r(name, &group, &buffer, buffer.count, &result)
            guard status == 0, result != nil else { return nil }
            return group.gr_gid
        }
    }

    /// The name or the gid, as written in the configuration.
    public var description: String {
        switch self {
        case .name(let name): name
        case .id(let gid): String(gid)
        }
    }
}
