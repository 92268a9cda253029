import Synchronization

/// A value a `@Sendable` closure may change (what a fake records), read by the test afterwards.
final class LockedBox<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) { storage = Mutex(value) }

    /// The value now.
    var value: Value { storage.withLock { $0 } }

    /// Changes the value.
    func update(_ change: (inout Value) -> Void) { storage.withLock { change(&$0) } }
}
