/// A value together with its freshness: one update of a cached-then-remote stream.
public struct Fetched<Value: Sendable>: Sendable {
    public var value: Value
    public var freshness: Freshness

    /// Creates an update.
    public init(value: Value, freshness: Freshness) {
        self.value = value
        self.freshness = freshness
    }
}

extension Fetched: Equatable where Value: Equatable {}

/// The stream every cached-then-remote task returns. It always terminates: normally after the
/// last value, or by throwing a `MoviesError` (after any cached value that was already emitted).
public typealias FetchedStream<Value: Sendable> = AsyncThrowingStream<Fetched<Value>, any Error>
