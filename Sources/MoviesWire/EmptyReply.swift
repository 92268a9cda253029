/// The (empty) parameters of a reply that carries no data, such as `DeleteWatchlist`.
public struct EmptyReply: Sendable, Hashable, Codable {
    /// Creates a reply.
    public init() {}
}
