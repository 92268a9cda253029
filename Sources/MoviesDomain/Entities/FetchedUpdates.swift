import Synchronization

/// Collects what a cached-then-remote task emits, for callers that want the updates afterwards
/// rather than as they come (a refresh wants only the last one).
public final class FetchedUpdates<Value: Sendable>: Sendable {
    private let updates = Mutex<[Fetched<Value>]>([])

    /// Creates an empty collection.
    public init() {}

    /// Appends `update`; pass it as the task's `emit`.
    public func emit(_ update: Fetched<Value>) {
        updates.withLock { $0.append(update) }
    }

    /// Every update so far, in order.
    public var all: [Fetched<Value>] { updates.withLock { $0 } }

    /// The last update so far.
    public var last: Fetched<Value>? { updates.withLock { $0.last } }

    /// The last update `task` emits through `emit` before it returns; throws what it throws, or
    /// `notCached` when it returned without an update.
    public static func last(of task: @Sendable (EmitFetched<Value>) async throws -> Void) async throws -> Fetched<Value> {
        let updates = FetchedUpdates<Value>()
        try await task { updates.emit($0) }
        guard let last = updates.last else { throw MoviesError.notCached("no answer was produced") }
        return last
    }
}
