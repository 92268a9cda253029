import SystemSupport

/// What a ``VarlinkServer`` counted since it started: its calls by method and outcome, their
/// latency, and its connections. Each event loop counts in plain integers of its own, on its own
/// thread (no lock, no atomic on the path of a call); ``VarlinkServer/metrics()`` asks every loop
/// for its counts and adds them up, so a server of several loops reads as one.
public struct VarlinkServerMetrics: Sendable {
    /// Why a connection was refused when it was accepted.
    public enum Refusal: String, Sendable, Hashable, CaseIterable {
        /// The server held its maximum of connections.
        case serverFull = "server_full"
        /// Only the connections kept for root and the service's own user were left.
        case reserved
        /// The peer's user already held the most connections one user may (per-uid throttling).
        case perUser = "per_user"
        /// The peer's uid names no one in the server's user namespace.
        case unnamedPeer = "unnamed_peer"
    }

    /// The calls of each method, in method-name order. Calls to a method the server does not serve
    /// (and messages that are no call) count under ``VarlinkMethodMetrics/otherMethod``.
    public var methods: [VarlinkMethodMetrics] = []
    /// Connections open now.
    public var openConnections = 0
    /// Connections accepted and served.
    public var acceptedConnections: UInt64 = 0
    /// Connections refused, by why.
    public var refusedConnections: [Refusal: UInt64] = [:]

    /// Nothing counted.
    public init() {}

    /// Adds what `other` counted (another event loop's counts).
    public mutating func merge(_ other: VarlinkServerMetrics) {
        var byName = Dictionary(methods.map { ($0.method, $0) }, uniquingKeysWith: { first, _ in first })
        for method in other.methods {
            if var mine = byName[method.method] {
                mine.merge(method)
                byName[method.method] = mine
            } else {
                byName[method.method] = method
            }
        }
        methods = byName.values.sorted { $0.method < $1.method }
        openConnections += other.openConnections
        acceptedConnections &+= other.acceptedConnections
        for (reason, count) in other.refusedConnections { refusedConnections[reason, default: 0] &+= count }
    }
}

/// The calls of one method: how they ended, how many were answered on the event loop (from
/// memory), and how long the first reply and the whole call took.
public struct VarlinkMethodMetrics: Sendable {
    /// The method name calls to an unserved method (or undecodable messages) count under.
    public static let otherMethod = "other"
    /// The outcome of a call that ended with a reply that is no error.
    public static let succeeded = "ok"
    /// The outcome of a call whose connection closed before its final reply.
    public static let disconnected = "disconnected"

    /// The fully qualified method, e.g. `io.moviesd.Movies.Search`, or ``otherMethod``.
    public let method: String
    /// Calls that ended with a reply that is no error.
    public var succeeded: UInt64 = 0
    /// Calls that ended with an error reply, by the error's name (and ``disconnected``).
    public var failed: [String: UInt64] = [:]
    /// Replies made at once on the event loop (the service's answers from memory): the final
    /// reply, or the first of a `more` call's.
    public var answeredAtOnce: UInt64 = 0
    /// From the call's message read to its first reply queued (the only reply of a call without `more`).
    public var firstReply = LatencyHistogram()
    /// From the call's message read to its final reply queued (or its end).
    public var duration = LatencyHistogram()

    /// No calls of `method` yet.
    public init(method: String) {
        self.method = method
    }

    /// Calls by outcome: ``succeeded`` and each error name.
    public var outcomes: [String: UInt64] {
        var outcomes = failed
        if succeeded > 0 { outcomes[Self.succeeded] = succeeded }
        return outcomes
    }

    /// Every call that ended.
    public var calls: UInt64 {
        failed.values.reduce(succeeded, &+)
    }

    /// Adds what `other` counted of the same method.
    public mutating func merge(_ other: VarlinkMethodMetrics) {
        succeeded &+= other.succeeded
        for (name, count) in other.failed { failed[name, default: 0] &+= count }
        answeredAtOnce &+= other.answeredAtOnce
        firstReply.merge(other.firstReply)
        duration.merge(other.duration)
    }
}
