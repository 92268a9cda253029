/// The `[Daemon]` section: where the daemon listens and stores, who may mutate, and server limits.
public struct DaemonSettings: Sendable, Hashable {
    /// `Socket=`: the Varlink socket path; nil means the default from ``DaemonPaths``.
    public var socketPath: String?
    /// `SocketMode=`: the socket file's permission bits (octal in the file). Default 0666.
    public var socketMode: UInt32 = 0o666
    /// `Database=`: the SQLite cache path; nil means the default from ``DaemonPaths``.
    public var databasePath: String?
    /// `AuthorizedGroup=`: besides root and the daemon's own user, members of this group may make
    /// mutating calls. Nil: nobody else.
    public var authorizedGroup: AuthorizedGroup?
    /// `LogLevel=`: the least important level written. Default info.
    public var logLevel: LogLevel = .info
    /// `MaxConnections=`: simultaneous client connections. Default 4096.
    public var maxConnections: Int = 4096
    /// `MaxConnectionsPerUser=`: simultaneous connections of one user other than root and the
    /// daemon's own (who also have 16 of `MaxConnections` kept for them). 0: no per-user limit. Default 256.
    public var maxConnectionsPerUser: Int = 256
    /// `MaxMessageBytes=`: the largest Varlink message accepted. Default 8 MiB.
    public var maxMessageBytes: Int = 8_388_608
    /// `IdleTimeoutSec=`: an idle connection is closed after this long. Default 300.
    public var idleTimeoutSeconds: Int = 300
    /// `CallDeadlineSec=`: a call always ends (with an error if need be) within this time. Default 30.
    public var callDeadlineSeconds: Int = 30
    /// `AnswerDeadlineSec=`: how long a call without `more` waits for the network before answering
    /// with cached data. Default 3.
    public var answerDeadlineSeconds: Int = 3

    /// The documented defaults.
    public init() {}
}
