import Synchronization

/// The number of open connections, written by the event loop and read from anywhere.
final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func add(_ delta: Int) {
        count.add(delta, ordering: .relaxed)
    }
}
