import Synchronization

/// What a call's stage on the server's event loop hands on to the call's task (see
/// ``VarlinkCall/carried``): one value, set on the loop before the task starts, read in the task.
public final class VarlinkCarried: Sendable {
    private let slot = Mutex<(any Sendable)?>(nil)

    /// Creates an empty slot.
    public init() {}

    /// The value handed on, if any.
    public var value: (any Sendable)? { slot.withLock { $0 } }

    /// Hands `value` on to the call's task.
    public func set(_ value: any Sendable) {
        slot.withLock { $0 = value }
    }
}
