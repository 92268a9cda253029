import Glibc
import Synchronization
@testable import SystemSupport
import Testing

/// The self-pipe of the loops that sleep in poll(2) or epoll_wait(2): a wake-up makes the poll
/// return, wake-ups coalesce until drained, and a drain empties the pipe.
@Suite struct LoopWakerTests {
    /// Whether a poll of the waker returns at once, readable.
    static func isReadable(_ waker: LoopWaker) -> Bool {
        var descriptor = pollfd(fd: waker.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }

    static func bytesQueued(_ waker: LoopWaker) -> Int32 {
        var count: Int32 = -1
        _ = ioctl(waker.fileDescriptor, UInt(FIONREAD), &count)
        return count
    }

    @Test func aWakeUpMakesThePollReturnUntilDrained() throws {
        let waker = try #require(LoopWaker())
        #expect(!Self.isReadable(waker))
        waker.wake()
        waker.wake()
        waker.wake()
        #expect(Self.isReadable(waker))
        #expect(Self.bytesQueued(waker) == 1, "wake-ups before a drain write one byte")
        waker.drain()
        #expect(!Self.isReadable(waker))
        waker.wake()
        #expect(Self.isReadable(waker), "a wake-up after the drain is not lost")
    }

    @Test func aThreadBlockedInPollIsWokenFromAnother() async throws {
        let waker = try #require(LoopWaker())
        let woken = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let started = NativeThread.detached {
                var descriptor = pollfd(fd: waker.fileDescriptor, events: Int16(POLLIN), revents: 0)
                // Bounded only so that a broken waker fails instead of hanging.
                continuation.resume(returning: poll(&descriptor, 1, 60_000) == 1)
            }
            if started { waker.wake() } else { continuation.resume(returning: false) }
        }
        #expect(woken)
    }

    /// A loop that drains, then looks, is never left asleep with work posted: one thread posts
    /// (counts, then wakes) 2,000,000 times while another polls, drains and looks at the count.
    /// A lost wake-up leaves the poll to its (generous) timeout with work unseen. A race: five
    /// rounds, each of which caught a drain that cleared before reading about half the time.
    @Test func noWakeUpIsLostBetweenADrainAndTheNextPoll() async throws {
        for _ in 0..<5 {
            let waker = try #require(LoopWaker())
            let posts = 2_000_000
            let posted = Atomic(0)
            let seen = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                let polling = NativeThread.detached {
                    var seen = 0
                    while seen < posts {
                        var descriptor = pollfd(fd: waker.fileDescriptor, events: Int16(POLLIN), revents: 0)
                        guard poll(&descriptor, 1, 10_000) == 1 else { break }
                        waker.drain()
                        seen = posted.load(ordering: .sequentiallyConsistent)
                    }
                    continuation.resume(returning: seen)
                }
                guard polling else { return continuation.resume(returning: -1) }
                // Should this thread not start, the poll times out and the count is short.
                _ = NativeThread.detached {
                    for _ in 0..<posts {
                        posted.add(1, ordering: .sequentiallyConsistent)
                        waker.wake()
                    }
                }
            }
            try #require(seen == posts)
        }
    }
}
