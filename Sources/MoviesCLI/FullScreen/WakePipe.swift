import Glibc
import Synchronization

/// Wakes an event loop blocked in poll(2) from another thread: a byte on a non-blocking pipe.
final class WakePipe: Sendable {
    /// The end the loop polls.
    let readEnd: Int32
    /// The end written to (by `wake()`, or by a signal handler: `SignalPipe`).
    let writeEnd: Int32

    /// Creates the pipe; `nil` when none could be made.
    init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
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
