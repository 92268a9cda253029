import Synchronization

/// The number of open connections, written by the event loop and read from anywhere.
final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)
    private let input = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    /// Input bytes buffered over all connections (unparsed calls), as the loop last counted them.
    var bufferedInputBytes: Int { input.load(ordering: .relaxed) }

    func setBufferedInput(_ bytes: Int) {
        input.store(bytes, ordering: .relaxed)
    }

    func add(_ delta: Int) {
        count.add(delta, ordering: .relaxed)
    }
}
