/// The process on the other end of a Unix socket connection, as the kernel reports it (`SO_PEERCRED`).
public struct PeerCredentials: Sendable, Hashable {
    /// The peer's process id at connect time.
    public var pid: Int32
    /// The peer's effective user id.
    public var uid: UInt32
    /// The peer's effective group id.
    public var gid: UInt32

    /// Creates credentials.
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}
