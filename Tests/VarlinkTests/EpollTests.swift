import Glibc
import Testing
@testable import Varlink

@Suite struct EpollTests {
    /// The tag given with a descriptor comes back with its events, and a modification replaces it:
    /// what tells a closed connection's stale events from a new one's on the same number.
    @Test func eventsComeWithTheTagTheirDescriptorWasGiven() throws {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { for fd in pair { close(fd) } }
        let epoll = try Epoll()
        #expect(epoll.add(pair[0], events: Epoll.readable, tag: 0xDEAD_BEEF))
        #expect(send(pair[1], "x", 1, 0) == 1)
        let first = epoll.waitForEvents(timeoutMilliseconds: 10_000)
        #expect(first.map(\.fd) == [pair[0]])
        #expect(first.map(\.tag) == [0xDEAD_BEEF])
        #expect(epoll.modify(pair[0], events: Epoll.readable, tag: 7))
        #expect(epoll.waitForEvents(timeoutMilliseconds: 10_000).map(\.tag) == [7])
    }
}
