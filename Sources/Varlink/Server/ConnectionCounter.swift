import Synchronization

/// The number of open connections and their buffered input over every event loop, written by
/// the loops and read from anywhere.
final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)
    private let input = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    /// Input bytes buffered over all connections (unparsed calls), as the loop last counted them.
    var bufferedInputBytes: Int { input.load(ordering: .relaxed) }

    /// Counts `delta` more (or fewer) buffered input bytes, of one loop's connections.
    func addBufferedInput(_ delta: Int) {
        guard delta != 0 else { return }
        input.add(delta, ordering: .relaxed)
    }

    func add(_ delta: Int) {
        count.add(delta, ordering: .relaxed)
    }
}
