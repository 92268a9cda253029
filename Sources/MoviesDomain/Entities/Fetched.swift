/// A value together with its freshness: one update of a cached-then-remote stream.
public struct Fetched<Value: Sendable>: Sendable {
    public var value: Value
    public var freshness: Freshness
    /// The value as the cache holds it for replies (the interface's JSON), when at hand: a reply
    /// sends these bytes rather than encoding the value again. `nil`: encode the value.
    public var encoded: [UInt8]?

    /// Creates an update.
    public init(value: Value, freshness: Freshness, encoded: [UInt8]? = nil) {
        self.value = value
        self.freshness = freshness
        self.encoded = encoded
    }
}

extension Fetched: Equatable where Value: Equatable {}

/// Where a cached-then-remote task sends its updates, in order: the cached value first (if the
/// policy allows and one exists), then TMDB's. The task itself is an async function that returns
/// after its last update, or throws a `MoviesError` (after any cached update it already emitted):
/// no task and no stream per layer.
public typealias EmitFetched<Value: Sendable> = @Sendable (Fetched<Value>) async -> Void
