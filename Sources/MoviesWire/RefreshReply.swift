import MoviesDomain

/// One reply of a `Refresh` call: a step's progress, or (last) the summary.
public struct RefreshReply: Sendable, Hashable, Codable {
    /// The step just done, on intermediate replies.
    public var progress: RefreshProgress?
    /// The outcome, on the final reply.
    public var summary: RefreshSummary?

    /// Creates a reply.
    public init(progress: RefreshProgress? = nil, summary: RefreshSummary? = nil) {
        self.progress = progress
        self.summary = summary
    }
}
