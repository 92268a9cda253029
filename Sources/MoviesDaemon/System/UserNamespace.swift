/// The uids the daemon's user namespace can name (user_namespaces(7)): the ranges of
/// `/proc/self/uid_map`, and the overflow uid the kernel reports instead of any other
/// (`/proc/sys/kernel/overflowuid`), in `SO_PEERCRED` as everywhere.
///
/// In the initial namespace (the system service) every uid is mapped. A user service runs with
/// `PrivateUsers=yes`, which maps its user's uid alone: a peer of any other uid that file
/// permissions let through the 0600 socket (root, or whoever holds `CAP_DAC_OVERRIDE`) shows as the
/// overflow uid, and the daemon cannot tell who it is.
public struct UserNamespace: Sendable, Hashable {
    /// The uids mapped inside the namespace, as inclusive ranges.
    public let mappedUIDs: [ClosedRange<UInt64>]
    /// The uid reported for an unmapped one (65534 unless the kernel was told otherwise).
    public let overflowUID: UInt32

    /// The kernel's default overflow uid.
    public static let defaultOverflowUID: UInt32 = 65534

    /// Parses `uidMap` in the format of `/proc/PID/uid_map`: one range a line, "inside outside
    /// count"; lines that do not parse are skipped.
    public init(uidMap: String, overflowUID: UInt32 = defaultOverflowUID) {
        mappedUIDs = uidMap.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).compactMap { UInt64($0) }
            guard fields.count == 3, fields[2] > 0 else { return nil }
            return fields[0]...(fields[0] + fields[2] - 1)
        }
        self.overflowUID = overflowUID
    }

    /// The daemon's own namespace. When `/proc` cannot be read, the initial namespace's map (every
    /// uid mapped), which refuses no one.
    public static func current() -> UserNamespace {
        let map = (try? FileContents.readText(atPath: "/proc/self/uid_map")) ?? "0 0 4294967295"
        let overflow = (try? FileContents.readText(atPath: "/proc/sys/kernel/overflowuid"))
            .flatMap { UInt32($0.filter { !$0.isWhitespace }) } ?? defaultOverflowUID
        return UserNamespace(uidMap: map, overflowUID: overflow)
    }

    /// The uid a peer from outside the namespace shows as, when no user inside has it (a user
    /// service's namespace); `nil` when the overflow uid is itself a mapped user's (the initial
    /// namespace, where 65534 is `nobody`, a user like any other).
    public var unmappedPeerUID: UInt32? {
        mappedUIDs.contains { $0.contains(UInt64(overflowUID)) } ? nil : overflowUID
    }
}
