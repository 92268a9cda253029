import Glibc

/// A pipe whose ends never block and are closed on exec: what the self-pipe trick needs.
enum NonBlockingPipe {
    /// The read and write ends; `nil` when no pipe could be made.
    static func make() -> (readEnd: Int32, writeEnd: Int32)? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }
}
