/// The parameters of a `RecentQueries` reply.
public struct RecentQueriesReply: Sendable, Hashable, Codable {
    /// Recent successful queries, newest first.
    public var queries: [String]

    /// Creates a reply.
    public init(queries: [String]) { self.queries = queries }
}
