import SystemSupport

/// What the accounts' outboxes did since the daemon started, every owner's together (counts only):
/// edits TMDB took, and edits TMDB refused for good. Shared by every account (their settings carry it).
public final class OutboxMetrics: Sendable, Hashable {
    private let counts = AtomicCounters(count: 2)

    /// Nothing counted yet.
    public init() {}

    /// Edits TMDB confirmed it took.
    public var delivered: UInt64 { counts.value(at: 0) }
    /// Edits TMDB refused for good (undone here).
    public var rejected: UInt64 { counts.value(at: 1) }

    /// The same counts (the settings that carry them compare by it).
    public static func == (lhs: OutboxMetrics, rhs: OutboxMetrics) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    func recordDelivered() { counts.add(at: 0) }
    func recordRejected() { counts.add(at: 1) }
}
