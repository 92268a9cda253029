import Glibc
import Synchronization

/// Wakes an event loop blocked in poll(2) from another thread: a byte on a non-blocking pipe.
final class WakePipe: Sendable {
    /// The end the loop polls.
    let readEnd: Int32
    private let writeEnd: Int32

    /// Creates the pipe; `nil` when none could be made.
    init?() {
        guard let ends = NonBlockingPipe.make() else { return nil }
        readEnd = ends.readEnd
        writeEnd = ends.writeEnd
    }

    /// Wakes the loop (a full pipe already will).
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe, after a wake-up.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
