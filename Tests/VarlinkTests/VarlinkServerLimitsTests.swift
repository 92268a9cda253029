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
}
