import MoviesDomain

/// Everything a `FetchedStream` delivered: its updates in order and the error it finished with.
public struct FetchedStreamRecord<Value: Sendable>: Sendable {
    /// The updates, in order.
    public var updates: [Fetched<Value>]
    /// The error that terminated the stream, or `nil` when it finished normally.
    public var error: MoviesError?

    /// Drains `stream` to its end.
    public init(_ stream: FetchedStream<Value>) async {
        var updates: [Fetched<Value>] = []
        var failure: MoviesError?
        do {
            for try await update in stream { updates.append(update) }
        } catch let error as MoviesError {
            failure = error
        } catch {
            failure = MoviesError(code: .storage, message: "unexpected error type \(type(of: error))")
        }
        self.updates = updates
        self.error = failure
    }

    /// The origins of the updates, in order.
    public var origins: [Freshness.Origin] { updates.map(\.freshness.origin) }
}
