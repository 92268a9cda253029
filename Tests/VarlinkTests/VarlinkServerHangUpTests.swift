import Foundation
import Glibc
import MoviesTestSupport
import Testing
@testable import Varlink

/// A client that hangs up: what it sent whole before it left is served as far as it can be. Its
/// oneway calls run (a client may send one and close at once: `movies` saving a recent query);
/// a call that expects a reply is cancelled, since nobody would read the reply.
@Suite struct VarlinkServerHangUpTests {
    private static func start() throws -> TestServer {
        try TestServer.start { $0.eventLoops = 1 }
    }

    /// Expects the `Note` calls tagged `tags` to have run to their end, in turn (the first that
    /// did not within the hang guard is the one reported), then the connections all closed.
    private static func expectRanAndClosed(_ tags: [String], on server: TestServer) async {
        for tag in tags {
            let ran = await server.probe.waitFor("done:\(tag)")
            #expect(ran, "the call \(tag) did not run")
            if !ran { return }
        }
        #expect(await server.waitForConnectionCount { $0 == 0 })
    }

    @Test func onewayCallsSentBeforeTheClientHangsUpRun() async throws {
        let server = try Self.start()
        let client = try RawConnection(path: server.path)
        // The first runs a while, so the hang-up comes while it runs and the others wait unread.
        try client.call("org.example.test.Note", ["tag": .string("first"), "milliseconds": .int(300)], oneway: true)
        try client.call("org.example.test.Note", ["tag": .string("second")], oneway: true)
        try client.call("org.example.test.Note", ["tag": .string("third")], oneway: true)
        client.hangUp()
        await Self.expectRanAndClosed(["first", "second", "third"], on: server)
        await server.stop()
    }

    /// More than the server reads ahead (16 KiB) is still in the socket when the client hangs up,
    /// and what it reads first are calls it skips (they expect replies): it reads on, to the
    /// oneway call at the end.
    @Test func aOnewayCallBehindMoreThanTheServerReadsAheadRunsAfterAHangUp() async throws {
        let server = try Self.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Note", ["tag": .string("slow"), "milliseconds": .int(300)], oneway: true)
        let padding = String(repeating: "p", count: 400)
        for index in 0..<100 {
            try client.call("org.example.test.Note", ["tag": .string("\(index) \(padding)")])
        }
        try client.call("org.example.test.Note", ["tag": .string("last")], oneway: true)
        client.hangUp()
        #expect(await server.probe.waitFor("done:last"), "the oneway call behind 40 KB of calls did not run")
        #expect(!server.probe.wasRecorded("done:50 \(padding)"))
        #expect(await server.waitForConnectionCount { $0 == 0 })
        await server.stop()
    }

    @Test func aCallExpectingAReplyIsCancelledWhenItsClientHangsUpAndTheOnewayCallsAfterItRun() async throws {
        let server = try Self.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Hang", ["tag": .string("waiting")])
        #expect(await server.probe.waitFor("started:waiting"))
        try client.call("org.example.test.Note", ["tag": .string("skipped"), "milliseconds": .int(10)])
        try client.call("org.example.test.Note", ["tag": .string("after")], oneway: true)
        client.hangUp()
        #expect(await server.probe.waitFor("waiting"), "the call waiting for its reply was not cancelled")
        #expect(await server.probe.waitFor("done:after"))
        #expect(await server.waitForConnectionCount { $0 == 0 })
        #expect(!server.probe.wasRecorded("done:skipped"), "a call whose reply nobody reads was run")
        await server.stop()
    }

    /// A burst of clients that each send a oneway call and hang up at once (the daemon's
    /// descriptors freed and reused as they go) all have their calls run. (That a stale event
    /// cannot reach a new connection on a reused number rests on the epoll tag: `EpollTests`.)
    @Test func clientsThatSendAndHangUpAtOnceAllHaveTheirCallsRun() async throws {
        let server = try Self.start()
        for index in 0..<40 {
            let client = try RawConnection(path: server.path)
            try client.call("org.example.test.Note", ["tag": .string("burst \(index)")], oneway: true)
            client.hangUp()
        }
        await Self.expectRanAndClosed((0..<40).map { "burst \($0)" }, on: server)
        await server.stop()
    }

    /// A peer found gone by a failed write (it shut down its reading side) is read on for the
    /// oneway calls it sent, past what the loop reads ahead, as one that closed is.
    @Test func aPeerThatStoppedReadingHasItsOnewayCallsRunPastTheReadAhead() async throws {
        let server = try Self.start()
        let client = try RawConnection(path: server.path)
        shutdown(client.fd, Int32(SHUT_RD))
        // The reply to the first cannot be written: the server finds the peer gone then, 0.1 s
        // on, when everything below has been sent.
        try client.call("org.example.test.Note", ["tag": .string("unread"), "milliseconds": .int(100)])
        let padding = String(repeating: "p", count: 400)
        for index in 0..<100 {
            try client.call("org.example.test.Note", ["tag": .string("\(index) \(padding)")])
        }
        try client.call("org.example.test.Note", ["tag": .string("last")], oneway: true)
        #expect(await server.probe.waitFor("done:last"), "the oneway call behind 40 KB of calls did not run")
        #expect(!server.probe.wasRecorded("done:99 \(padding)"), "the peer was not found gone")
        #expect(await server.waitForConnectionCount { $0 == 0 })
        await server.stop()
    }

    /// A peer that stopped reading but keeps sending does not hold the loop: it is read a bounded
    /// amount a turn, and other connections are answered meanwhile.
    @Test func aPeerThatStopsReadingButKeepsSendingDoesNotHoldTheLoop() async throws {
        let server = try Self.start()
        let flooder = try RawConnection(path: server.path)
        shutdown(flooder.fd, Int32(SHUT_RD))
        try flooder.call("org.example.test.Echo", ["text": .string("unread")])
        try flooder.call("org.example.test.Note", ["tag": .string("slow"), "milliseconds": .int(200)], oneway: true)
        let fd = flooder.fd
        let one = JSONValue.object(["method": .string("org.example.test.Echo"), "parameters": .object(["text": .string("flood")])]).serialized() + [0]
        let batch = Array((0..<(65_536 / one.count)).map { _ in one }.joined())
        // Sends for at most 30 s: true when that time ran out (the loop was held all along),
        // false when the server closed it.
        let flood = Task {
            try await offThread { () -> Bool in
                let deadline = ContinuousClock.now + .seconds(30)
                while ContinuousClock.now < deadline {
                    let sent = batch.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if sent < 0 { return false }
                }
                return true
            }
        }
        #expect(await server.probe.waitFor("done:slow"))
        let other = try RawConnection(path: server.path)
        try other.call("org.example.test.Echo", ["text": .string("other")])
        #expect(try await other.readMessage()["parameters"]?["text"] == .string("other"))
        #expect(try await flood.value == false, "the flooding peer was read until it gave up, holding the loop")
        await server.stop()
    }
}
