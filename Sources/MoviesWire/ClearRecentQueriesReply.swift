/// The parameters of a `ClearRecentQueries` reply.
public struct ClearRecentQueriesReply: Sendable, Hashable, Codable {
    /// How many of the caller's recent queries were forgotten.
    public var cleared: Int

    /// Creates a reply.
    public init(cleared: Int) { self.cleared = cleared }
}
