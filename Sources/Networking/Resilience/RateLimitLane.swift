/// Whose request waits for a token of the rate limiter, and how urgently: the limiter hands its
/// tokens out round-robin between the uids that wait, a user's calls (searches, movies, posters)
/// before background work (refreshes, prefetch, an account's outbox), so one user's 1,000-edit
/// drain or 500-entry prefetch delays another's search by one request slot at the most.
public struct RateLimitLane: Sendable, Hashable, CustomStringConvertible {
    /// How urgently the request is wanted.
    public enum Priority: Int, Sendable, Hashable, CaseIterable {
        /// Someone waits for the answer now.
        case interactive
        /// Nobody waits: refresh, prefetch, the outbox.
        case background
    }

    /// The local user the request is made for; `nil`: the daemon's own (system) work.
    public var uid: UInt32?
    /// How urgently it is wanted.
    public var priority: Priority

    /// Creates a lane.
    public init(uid: UInt32?, priority: Priority) {
        self.uid = uid
        self.priority = priority
    }

    /// The lane of the work running in this task, set where the work starts (the Varlink service
    /// per caller, the refresher per list, each account's outbox); unset: the system's, interactive.
    @TaskLocal public static var current = RateLimitLane(uid: nil, priority: .interactive)

    /// `uid 1000 interactive`, `system background`.
    public var description: String { "\(uid.map { "uid \($0)" } ?? "system") \(priority)" }
}
