import MoviesDomain

/// Everything a cached-then-remote task emitted: its updates in order and the error it threw.
public struct FetchedRecord<Value: Sendable>: Sendable {
    /// The updates, in order.
    public var updates: [Fetched<Value>]
    /// The error the task threw, or `nil` when it returned normally.
    public var error: MoviesError?

    /// Runs `task` to its end, collecting what it emits.
    public init(_ task: @Sendable (EmitFetched<Value>) async throws -> Void) async {
        let collected = FetchedUpdates<Value>()
        var failure: MoviesError?
        do {
            try await task { collected.emit($0) }
        } catch let error as MoviesError {
            failure = error
        } catch {
            failure = MoviesError(code: .storage, message: "unexpected error type \(type(of: error))")
        }
        self.updates = collected.all
        self.error = failure
    }

    /// The origins of the updates, in order.
    public var origins: [Freshness.Origin] { updates.map(\.freshness.origin) }
}
