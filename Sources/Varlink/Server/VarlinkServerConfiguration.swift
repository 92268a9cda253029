/// What a ``VarlinkServer`` says about itself (`GetInfo`) and the limits it enforces.
public struct VarlinkServerConfiguration: Sendable {
    /// `GetInfo` vendor.
    public var vendor: String
    /// `GetInfo` product.
    public var product: String
    /// `GetInfo` version.
    public var version: String
    /// `GetInfo` url.
    public var url: String
    /// The largest message accepted, in bytes, NUL excluded (default 8 MiB). A larger one gets
    /// `org.varlink.service.InvalidParameter {parameter: "message"}` and the connection is closed.
    public var maxMessageBytes: Int = 8 * 1024 * 1024
    /// The most connections served at once (default 4096); extra ones are accepted and closed at once.
    public var maxConnections: Int = 4096
    /// Event-loop threads, each with its own epoll set (default 1): connections are spread over
    /// them, the one with the fewest taking the next; a connection stays on its loop.
    public var eventLoops: Int = 1
    /// The most connections one user (peer uid) may hold at once (default 0: no limit besides
    /// ``maxConnections``). Uids in ``privilegedUIDs`` are exempt.
    public var maxConnectionsPerUser: Int = 0
    /// Connections of ``maxConnections`` kept for ``privilegedUIDs`` (default 16): other users
    /// together get at most `maxConnections - reservedConnections`.
    public var reservedConnections: Int = 16
    /// Peers exempt from ``maxConnectionsPerUser`` and allowed the reserve (default: root).
    public var privilegedUIDs: Set<UInt32> = [0]
    /// The uid `SO_PEERCRED` reports for a peer the server cannot name: a process whose uid has no
    /// mapping in the server's user namespace shows as the kernel's overflow uid (65534;
    /// user_namespaces(7)), whoever it is. Under systemd's `PrivateUsers=yes`, which maps a user
    /// service's own uid alone, that is root and anyone else file permissions let through, all alike.
    /// A peer with this uid is refused: `org.varlink.service.PermissionDenied` instead of its first
    /// reply, then the connection is closed. `nil` (the default): no uid is refused as such; set it
    /// only when the overflow uid is no user of the namespace.
    public var unmappedPeerUID: UInt32?
    /// The error sent to a connection refused for a limit, before it is closed; receives the
    /// limit that was hit and a sentence saying which.
    public var connectionLimitError: @Sendable (_ limit: Int, _ reason: String) -> VarlinkError = { limit, reason in
        VarlinkError(name: "org.varlink.service.TooManyConnections", parameters: ["limit": .int(Int64(limit)), "reason": .string(reason)])
    }
    /// Input bytes all connections together may buffer for messages larger than 16 KiB (default
    /// 16 MiB). Past it, one such message at a time is read anyway (until it is whole, or its
    /// client stops sending for a second) and the others wait for room, so the server holds at
    /// most this, one message of ``maxMessageBytes`` and 16 KiB a connection.
    public var inputBudgetBytes: Int = 16 * 1024 * 1024
    /// Seconds a connection with no call in flight may stay silent before it is closed (default 300; 0 disables).
    public var idleTimeoutSeconds: Int = 300
    /// Seconds a handler may take for one call before it is cancelled (default 60; 0 disables).
    /// The deadline covers the whole call, `more` streams included; a method may have its own
    /// (``VarlinkInterfaceHandler/deadlineSeconds(forMethod:)``, e.g. a router's registration).
    public var callDeadlineSeconds: Int = 60
    /// The error replied when a call hits its deadline; receives the deadline in seconds.
    /// Defaults to systemd's `io.systemd.TimedOut` (no parameters).
    public var deadlineError: @Sendable (Int) -> VarlinkError = { _ in VarlinkError(name: "io.systemd.TimedOut") }

    /// Creates a configuration with the default limits.
    public init(vendor: String, product: String, version: String, url: String) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
    }
}
