import Glibc
import MoviesTestSupport
import Testing
@testable import Varlink

/// Limits and isolation: many connections, stuck clients, deadlines, idle timeouts.
@Suite struct VarlinkServerLimitsTests {
    @Test func holdsAThousandConcurrentConnectionsAndAnswersEach() async throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 2_300 {
            limit.rlim_cur = min(limit.rlim_max, 4_096)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        let server = try TestServer.start()
        var clients: [RawConnection] = []
        for _ in 0..<1_000 { clients.append(try RawConnection(path: server.path)) }
        #expect(await server.waitForConnectionCount { $0 == 1_000 })
        for (index, client) in clients.enumerated() {
            try client.call("org.example.test.Echo", ["text": .string("client \(index)")])
        }
        var answered = 0
        for (index, client) in clients.enumerated() {
            if try await client.readMessage()["parameters"]?["text"] == .string("client \(index)") { answered += 1 }
        }
        #expect(answered == 1_000)
        #expect(server.server.connectionCount == 1_000)
        clients.removeAll()
        #expect(await server.waitForConnectionCount { $0 == 0 })
        await server.stop()
    }

    @Test func aStuckClientDoesNotDelayOthers() async throws {
        let server = try TestServer.start()
        let notReading = try RawConnection(path: server.path)
        try notReading.call("org.example.test.Count", ["count": .int(4_000), "padding": .int(1_000)], more: true)
        let halfMessage = try RawConnection(path: server.path)
        try halfMessage.send(Array(#"{"method":"org.example.test.Ec"#.utf8))
        #expect(await server.waitForConnectionCount { $0 == 2 })
        try await Task.sleep(for: .milliseconds(100))

        let other = try RawConnection(path: server.path)
        for index in 0..<20 {
            try other.call("org.example.test.Echo", ["text": .string("\(index)")])
            #expect(try await other.readMessage()["parameters"]?["text"] == .string("\(index)"))
        }
        // The stuck stream is intact: its first replies arrive once it reads.
        let first = try await notReading.readMessage()
        #expect(first["parameters"]?["index"] == .int(0))
        #expect(first["continues"] == .bool(true))
        await server.stop()
    }

    /// A server where only Hang has a short deadline (1 s), whose error names it: other calls
    /// must not race a 1 s deadline on a busy machine.
    private static func startWithHangDeadline() throws -> TestServer {
        try TestServer.start(deadlines: ["Hang": 1]) {
            $0.callDeadlineSeconds = Int(ProcessDeadline.seconds)
            $0.deadlineError = { seconds in VarlinkError(name: "org.example.test.Failed", parameters: ["reason": .string("took over \(seconds)s")]) }
        }
    }

    @Test func repliesWithTheDeadlineErrorAndCancelsTheHandler() async throws {
        let server = try Self.startWithHangDeadline()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Hang", ["tag": .string("slow")])
        let reply = try await client.readMessage()
        #expect(reply == .object(["error": .string("org.example.test.Failed"), "parameters": .object(["reason": .string("took over 1s")])]))
        #expect(await server.probe.waitFor("slow"))
        try client.call("org.example.test.Echo", ["text": .string("after")])
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("after"))
        await server.stop()
    }

    /// A call started when the one before it on its connection expired gets its own deadline:
    /// the sweep that expired the first used to overwrite the schedule that the second's start
    /// set, and with no other timer the loop then waited for ever.
    @Test func aPipelinedCallStartedByAnExpiryExpiresToo() async throws {
        let server = try Self.startWithHangDeadline()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Hang", ["tag": .string("first")])
        try client.call("org.example.test.Hang", ["tag": .string("second")])
        #expect(try await client.readMessage()["parameters"]?["reason"] == .string("took over 1s"))
        #expect(try await client.readMessage()["parameters"]?["reason"] == .string("took over 1s"))
        #expect(await server.probe.waitFor("second"))
        await server.stop()
    }

    @Test func aMethodsOwnDeadlineReplacesTheServers() async throws {
        let server = try TestServer.start(deadlines: ["Sleep": 0, "Hang": 2]) {
            $0.callDeadlineSeconds = 1
            $0.deadlineError = { seconds in VarlinkError(name: "org.example.test.Failed", parameters: ["reason": .string("took over \(seconds)s")]) }
        }
        let client = try RawConnection(path: server.path)
        // Exempt: sleeps past the general 1 s deadline and still answers.
        try client.call("org.example.test.Sleep", ["milliseconds": .int(1_300)])
        #expect(try await client.readMessage() == .object(["parameters": .object([:])]))
        // Overridden: the error names the method's own deadline.
        try client.call("org.example.test.Hang", ["tag": .string("override")])
        let reply = try await client.readMessage()
        #expect(reply["parameters"]?["reason"] == .string("took over 2s"))
        await server.stop()
    }

    @Test func closesIdleConnectionsButNotBusyOnes() async throws {
        let server = try TestServer.start { $0.idleTimeoutSeconds = 1 }
        let idle = try RawConnection(path: server.path)
        let busy = try RawConnection(path: server.path)
        try busy.call("org.example.test.Sleep", ["milliseconds": .int(1_500)])
        #expect(await idle.isClosedByServer())
        #expect(try await busy.readMessage() == .object(["parameters": .object([:])]))
        await server.stop()
    }

    /// A call longer than the idle timeout restarts its connection's idle clock when it ends: the
    /// connection is idle from then, not from when the call came. Another connection's deadline
    /// makes the loop sweep between the two (one loop, so one sweep looks at both): without the
    /// restart that sweep closes the connection the moment its call has ended.
    @Test func theIdleClockStartsWhenACallEnds() async throws {
        // Only Hang has a deadline (1 s): Echo's reply must not be a deadline's error on a busy machine.
        let server = try TestServer.start(deadlines: ["Sleep": 0, "Echo": 0]) {
            $0.eventLoops = 1
            $0.idleTimeoutSeconds = 3
            $0.callDeadlineSeconds = 1
            $0.deadlineError = { seconds in VarlinkError(name: "org.example.test.Failed", parameters: ["reason": .string("took over \(seconds)s")]) }
        }
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Sleep", ["milliseconds": .int(3_500)])
        #expect(try await client.readMessage() == .object(["parameters": .object([:])]))
        // The call ended; now a sweep, 1 s later (2 s before the idle timeout), for another's deadline.
        let other = try RawConnection(path: server.path)
        try other.call("org.example.test.Hang", ["tag": .string("sweep")])
        #expect(try await other.readMessage()["parameters"]?["reason"] == .string("took over 1s"))
        try client.call("org.example.test.Echo", ["text": .string("still open")])
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("still open"))
        // And idle from the end of its last call, it is closed after all.
        #expect(await client.isClosedByServer())
        await server.stop()
    }

    /// The end of a call with no deadline schedules the idle timeout's check: while the call ran
    /// nothing was due, and no other connection makes the loop look again.
    @Test func aConnectionIdleAfterACallWithoutDeadlineIsClosed() async throws {
        let server = try TestServer.start(deadlines: ["Sleep": 0]) {
            $0.eventLoops = 1
            $0.idleTimeoutSeconds = 1
        }
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Sleep", ["milliseconds": .int(1_500)])
        #expect(try await client.readMessage() == .object(["parameters": .object([:])]))
        #expect(await client.isClosedByServer())
        await server.stop()
    }

    /// A call arriving slowly is activity: the idle timeout closes a silent connection, not one
    /// still sending its call (in pieces 0.5 s apart, 4 s in all against a 3 s timeout). The
    /// pieces are paced by a thread of their own, not by a task a busy test run may hold back.
    @Test func aCallSentSlowlyIsNotTakenForIdleness() async throws {
        let server = try TestServer.start { $0.idleTimeoutSeconds = 3 }
        let client = try RawConnection(path: server.path)
        let call = JSONValue.object(["method": .string("org.example.test.Echo"), "parameters": .object(["text": .string("slowly")])]).serialized() + [0]
        let fd = client.fd
        let pieces = 8
        let sent = try await offThread { () -> Bool in
            for piece in 0..<pieces {
                usleep(500_000)
                let bytes = Array(call[(call.count * piece / pieces)..<(call.count * (piece + 1) / pieces)])
                guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else { return false }
            }
            return true
        }
        #expect(sent, "the server closed the connection while the call was arriving")
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("slowly"))
        await server.stop()
    }

    /// One reply larger than the output's hard limit (the high water mark and one message of
    /// `maxMessageBytes`) is sent whole: that limit is for a stream nobody reads, not for one
    /// large reply (a poster).
    @Test func aReplyLargerThanTheOutputHardLimitIsSentWhole() async throws {
        let server = try TestServer.start { $0.maxMessageBytes = 4096 }
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Count", ["count": .int(2), "padding": .int(1_000_000)], more: true)
        #expect(try await client.readMessage()["parameters"]?["pad"]?.stringValue?.utf8.count == 1_000_000)
        #expect(try await client.readMessage()["parameters"]?["index"] == .int(1))
        await server.stop()
    }

    @Test func closesConnectionsBeyondTheLimitAtOnce() async throws {
        let server = try TestServer.start { $0.maxConnections = 2 }
        let first = try RawConnection(path: server.path)
        let second = try RawConnection(path: server.path)
        #expect(await server.waitForConnectionCount { $0 == 2 })
        let third = try RawConnection(path: server.path)
        #expect(await third.isClosedByServer())
        #expect(server.server.connectionCount == 2)
        for client in [first, second] {
            try client.call("org.example.test.Echo", ["text": .string("ok")])
            #expect(try await client.readMessage()["parameters"]?["text"] == .string("ok"))
        }
        await server.stop()
    }

    /// The output hard limit: a stream to a client that never reads is not queued without end.
    /// With 4 KiB messages the limit is 128 KiB + 4 KiB, far below the 4 MB the stream makes.
    @Test func aStreamToAClientThatNeverReadsIsClosedAtTheOutputHardLimit() async throws {
        let server = try TestServer.start { $0.maxMessageBytes = 4096 }
        let notReading = try RawConnection(path: server.path)
        // Served (so counted) before the stream starts: the count's fall to 0 is then its close.
        try notReading.call("org.example.test.Echo", ["text": .string("first")])
        #expect(try await notReading.readMessage()["parameters"]?["text"] == .string("first"))
        try notReading.call("org.example.test.Count", ["count": .int(4_000), "padding": .int(1_000)], more: true)
        #expect(await server.waitForConnectionCount { $0 == 0 }, "the connection was kept, its output queued")
        // What reached the socket before the close is a cut-off stream: never its final reply.
        var replies = 0
        var last: JSONValue?
        while let reply = try? await notReading.readMessage() {
            replies += 1
            last = reply
        }
        #expect(replies < 4_000)
        #expect(last?["continues"] == .bool(true))
        await server.stop()
    }

    /// The output high water mark: a client that pipelines calls and reads no reply is no longer
    /// read (its calls wait in the kernel, the server holds about the high water mark of replies),
    /// and is served again, in order, once it reads.
    @Test func aClientThatReadsNoRepliesIsNotReadUntilItCatchesUp() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        let count = 1_500
        let padding = String(repeating: "x", count: 1_000)
        let calls = (0..<count).map { index in
            JSONValue.object(["method": .string("org.example.test.Echo"), "parameters": .object(["text": .string("\(100_000 + index)\(padding)")])])
                .serialized() + [0]
        }
        let callBytes = calls[0].count
        #expect(calls.allSatisfy { $0.count == callBytes })
        let payload = Array(calls.joined())
        // Served first: the stall below is then the server's doing, not a server not yet running.
        try client.call("org.example.test.Echo", ["text": .string("first")])
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("first"))
        // The blocking sends run on their own thread: the Echo handlers need the task threads.
        nonisolated(unsafe) let sender = client
        // 1.5 MB of calls whose replies are as large: past the high water mark (plus the socket
        // buffers) the server stops reading. Without it, it reads and answers them all.
        var sent = try await offThread { sender.sendUntilStalled(payload, stallMilliseconds: 500) }
        #expect(sent < payload.count, "the server read all \(payload.count) bytes of calls whose replies nobody read")
        #expect(server.server.connectionCount == 1)
        // Reading the replies lets the rest in; every call is answered, in order.
        var answered = 0
        let deadline = ContinuousClock.now + .seconds(ProcessDeadline.seconds)
        while answered < count, ContinuousClock.now < deadline {
            while answered < sent / callBytes {
                let text = try await client.readMessage()["parameters"]?["text"]?.stringValue
                #expect(text == "\(100_000 + answered)\(padding)")
                answered += 1
            }
            if sent < payload.count {
                let rest = Array(payload[sent...])
                sent += try await offThread { sender.sendUntilStalled(rest, stallMilliseconds: 100) }
            }
        }
        #expect(answered == count)
        await server.stop()
    }

    /// A oneway call that runs past its deadline gets no deadline error: the next reply on the
    /// connection is the next call's.
    @Test func aOnewayCallPastItsDeadlineGetsNoError() async throws {
        let server = try Self.startWithHangDeadline()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Hang", ["tag": .string("quiet")], oneway: true)
        try client.call("org.example.test.Echo", ["text": .string("after")])
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("after"))
        #expect(await server.probe.waitFor("quiet"))
        await server.stop()
    }

    /// An idle timeout of 0 disables it (it does not close every connection at once).
    @Test func anIdleTimeoutOfZeroClosesNothing() async throws {
        let server = try TestServer.start { $0.idleTimeoutSeconds = 0 }
        let client = try RawConnection(path: server.path)
        #expect(await server.waitForConnectionCount { $0 == 1 })
        #expect(await !client.hasInput(withinMilliseconds: 300), "the connection was closed")
        try client.call("org.example.test.Echo", ["text": .string("still open")])
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("still open"))
        await server.stop()
    }

    enum ConnectionLimit: String, CaseIterable, Sendable { case perUser, total }

    /// A connection that closes gives its place back, under the per-user limit and the total one.
    @Test(arguments: ConnectionLimit.allCases)
    func aClosedConnectionFreesItsPlace(_ limit: ConnectionLimit) async throws {
        let server = try TestServer.start {
            switch limit {
            case .perUser:
                $0.maxConnectionsPerUser = 2
                $0.privilegedUIDs = []
            case .total:
                $0.maxConnections = 2
                $0.reservedConnections = 0
            }
        }
        var held = try (0..<2).map { _ in try RawConnection(path: server.path) }
        #expect(await server.waitForConnectionCount { $0 == 2 })
        let refused = try RawConnection(path: server.path)
        try? refused.call("org.example.test.Echo", ["text": .string("x")])
        #expect(try await refused.readMessage()["error"] == .string("org.varlink.service.TooManyConnections"))
        held.removeFirst()
        #expect(await server.waitForConnectionCount { $0 == 1 })
        let admitted = try RawConnection(path: server.path)
        try admitted.call("org.example.test.Echo", ["text": .string("admitted")])
        #expect(try await admitted.readMessage()["parameters"]?["text"] == .string("admitted"))
        #expect(server.server.connectionCount == 2)
        await server.stop()
    }
}
