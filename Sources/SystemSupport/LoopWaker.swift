import Glibc
import Synchronization

/// Wakes a thread blocked in poll(2) or epoll_wait(2), from another thread or from a signal
/// handler: the self-pipe trick, a byte on a non-blocking pipe whose read end the loop polls.
/// Every loop that sleeps in the kernel uses it: the Varlink event loop (a reply or a shutdown
/// was posted), `movies browse` (a call answered, a signal came: `SignalRelay`) and the daemon's
/// signal watcher. Tasks wait on a `WakeSignal` instead. (An eventfd would be one descriptor, not
/// two, but Swift's Glibc module does not declare `eventfd`, and the static `movies` cannot look
/// it up with dlsym.)
///
/// Wake-ups coalesce: only the first `wake()` after a `drain()` writes a byte. The loop drains
/// before it looks at what it was woken for, so a wake-up given after that look is never lost.
public final class LoopWaker: Sendable {
    /// The end the loop polls for readability.
    public let fileDescriptor: Int32
    /// The end written to (a signal handler writes here directly: `SignalRelay`).
    let writeEnd: Int32
    private let pending = Atomic(false)

    /// Creates the pipe; `nil` (with `errno` set) when none could be made.
    public init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (fileDescriptor, writeEnd) = (ends[0], ends[1])
    }

    /// Makes the loop's poll return (its next one, if it is not polling now).
    public func wake() {
        guard !pending.exchange(true, ordering: .sequentiallyConsistent) else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe, after the poll said it is readable and before the loop looks at why.
    /// The pipe is read before the next `wake()` may write again: a byte written after the read
    /// stays for the next poll, where clearing first could read it and leave the loop asleep.
    public func drain() {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while read(fileDescriptor, &buffer, MemoryLayout.size(ofValue: buffer)) > 0 {}
        pending.store(false, ordering: .sequentiallyConsistent)
    }

    deinit {
        close(fileDescriptor)
        close(writeEnd)
    }
}
