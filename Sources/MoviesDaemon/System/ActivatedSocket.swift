/// A listening socket passed by systemd socket activation.
public struct ActivatedSocket: Sendable, Hashable {
    /// The inherited file descriptor (3, 4, ...).
    public var fileDescriptor: Int32
    /// Its name from `LISTEN_FDNAMES` (`FileDescriptorName=`), when given.
    public var name: String?

    /// Creates a description of an inherited socket.
    public init(fileDescriptor: Int32, name: String?) {
        self.fileDescriptor = fileDescriptor
        self.name = name
    }
}
