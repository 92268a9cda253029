import Foundation
import MoviesTestSupport
import Testing
@testable import Varlink

/// What the event loop counts: each call by method and outcome once it ends, answers made on the
/// loop, the latency of the first reply and of the whole call, connections.
@Suite struct VarlinkServerMetricsTests {
    private static func method(_ name: String, in metrics: VarlinkServerMetrics) -> VarlinkMethodMetrics? {
        metrics.methods.first { $0.method == name }
    }

    @Test func callsAreCountedByMethodAndOutcomeWithTheirLatency() async throws {
        let handler = AtOnceInterface()
        let server = try TestServer.start(extraHandlers: [handler])
        let client = try RawConnection(path: server.path)
        // On the loop, from memory: the final reply, then a more call's first reply.
        try client.call("org.example.atonce.Remembered", ["text": .string("hello")])
        _ = try await client.readMessage()
        // Through the task: a plain call, an error, and a more call with two replies.
        try client.call("org.example.test.Echo", ["text": .string("x")])
        _ = try await client.readMessage()
        try client.call("org.example.test.Echo")
        #expect(try await client.readMessage()["error"] == .string("org.varlink.service.InvalidParameter"))
        try client.call("org.example.atonce.Computed", ["text": .string("streamed")], more: true)
        _ = try await client.readMessage()
        _ = try await client.readMessage()
        // Answered by the server itself, and to nothing it serves.
        try client.call("org.varlink.service.GetInfo")
        _ = try await client.readMessage()
        try client.call("org.example.nothing.Here")
        #expect(try await client.readMessage()["error"] == .string("org.varlink.service.InterfaceNotFound"))
        try client.call("org.example.test.Nope")
        #expect(try await client.readMessage()["error"] == .string("org.varlink.service.MethodNotFound"))

        let metrics = await server.server.metrics()
        let remembered = try #require(Self.method("org.example.atonce.Remembered", in: metrics))
        #expect(remembered.outcomes == ["ok": 1])
        #expect(remembered.answeredAtOnce == 1)
        #expect(remembered.firstReply.count == 1)
        #expect(remembered.duration.count == 1)
        let echo = try #require(Self.method("org.example.test.Echo", in: metrics))
        #expect(echo.outcomes == ["ok": 1, "org.varlink.service.InvalidParameter": 1])
        #expect(echo.calls == 2)
        #expect(echo.answeredAtOnce == 0)
        #expect(echo.firstReply.count == 2)
        #expect(echo.duration.count == 2)
        let computed = try #require(Self.method("org.example.atonce.Computed", in: metrics))
        #expect(computed.outcomes == ["ok": 1])
        // Two replies, one first reply: the first is counted once, and never after the whole call.
        #expect(computed.firstReply.count == 1)
        #expect(computed.duration.count == 1)
        #expect(computed.firstReply.sumNanoseconds <= computed.duration.sumNanoseconds)
        #expect(Self.method("org.varlink.service.GetInfo", in: metrics)?.outcomes == ["ok": 1])
        // Methods nobody serves are one slot, whatever their names: the table stays bounded.
        let other = try #require(Self.method(VarlinkMethodMetrics.otherMethod, in: metrics))
        #expect(other.outcomes == ["org.varlink.service.InterfaceNotFound": 1, "org.varlink.service.MethodNotFound": 1])
        #expect(Self.method("org.example.nothing.Here", in: metrics) == nil)
        #expect(metrics.acceptedConnections == 1)
        #expect(metrics.openConnections == 1)
        await server.stop()
    }

    @Test func aStreamAnsweredFirstFromMemoryCountsItsFirstReplyThere() async throws {
        let server = try TestServer.start(extraHandlers: [StreamingAtOnce()])
        let client = try RawConnection(path: server.path)
        try client.call("org.example.stream.Get", more: true)
        #expect(try await client.readMessage()["continues"] == .bool(true))
        #expect(try await client.readMessage()["parameters"]?["from"] == .string("task"))
        let get = try #require(Self.method("org.example.stream.Get", in: await server.server.metrics()))
        #expect(get.answeredAtOnce == 1)
        #expect(get.firstReply.count == 1)
        #expect(get.duration.count == 1)
        #expect(get.outcomes == ["ok": 1])
        await server.stop()
    }

    @Test func aCallWhoseClientLeavesIsCountedAsDisconnected() async throws {
        let server = try TestServer.start()
        do {
            let client = try RawConnection(path: server.path)
            try client.call("org.example.test.Hang", ["tag": .string("gone")])
            #expect(await server.probe.waitFor("started:gone"))
        }
        #expect(await server.waitForConnectionCount { $0 == 0 })
        let hang = try #require(Self.method("org.example.test.Hang", in: await server.server.metrics()))
        #expect(hang.outcomes == [VarlinkMethodMetrics.disconnected: 1])
        #expect(hang.firstReply.isEmpty)
        #expect(hang.duration.count == 1)
        await server.stop()
    }

    @Test func aCallPastItsDeadlineIsCountedWithTheDeadlineError() async throws {
        let server = try TestServer.start(deadlines: ["Hang": 1])
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Hang", ["tag": .string("late")])
        #expect(try await client.readMessage()["error"] == .string("io.systemd.TimedOut"))
        let hang = try #require(Self.method("org.example.test.Hang", in: await server.server.metrics()))
        #expect(hang.outcomes == ["io.systemd.TimedOut": 1])
        #expect(hang.firstReply.count == 1)
        #expect(hang.duration.sumNanoseconds >= 1_000_000_000)
        await server.stop()
    }

    @Test func refusedConnectionsAreCountedByReason() async throws {
        let server = try TestServer.start {
            $0.maxConnectionsPerUser = 1
            $0.privilegedUIDs = []
        }
        let holder = try RawConnection(path: server.path)
        #expect(await server.waitForConnectionCount { $0 == 1 })
        let refused = try RawConnection(path: server.path)
        try? refused.call("org.example.test.Echo", ["text": .string("x")])
        #expect(try await refused.readMessage()["error"] == .string("org.varlink.service.TooManyConnections"))
        let metrics = await server.server.metrics()
        #expect(metrics.refusedConnections == [.perUser: 1])
        #expect(metrics.acceptedConnections == 1)
        _ = holder
        await server.stop()
    }

    @Test func theCountsOfAStoppedServerStayReadable() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Echo", ["text": .string("x")])
        _ = try await client.readMessage()
        await server.stop()
        let metrics = await server.server.metrics()
        #expect(Self.method("org.example.test.Echo", in: metrics)?.outcomes == ["ok": 1])
        #expect(metrics.openConnections == 0)
    }

    @Test func countsOfSeveralLoopsAddUp() {
        var first = VarlinkServerMetrics()
        var a = VarlinkMethodMetrics(method: "x.Y")
        a.succeeded = 2
        a.firstReply.record(nanoseconds: 1_000)
        first.methods = [a]
        first.acceptedConnections = 3
        first.refusedConnections = [.perUser: 1]
        var second = VarlinkServerMetrics()
        var b = VarlinkMethodMetrics(method: "x.Y")
        b.failed = ["e": 1]
        b.firstReply.record(nanoseconds: 1_000)
        second.methods = [b, VarlinkMethodMetrics(method: "a.B")]
        second.acceptedConnections = 1
        second.openConnections = 2
        second.refusedConnections = [.perUser: 2, .serverFull: 1]
        first.merge(second)
        #expect(first.methods.map(\.method) == ["a.B", "x.Y"])
        #expect(first.methods[1].outcomes == ["ok": 2, "e": 1])
        #expect(first.methods[1].firstReply.count == 2)
        #expect(first.acceptedConnections == 4)
        #expect(first.openConnections == 2)
        #expect(first.refusedConnections == [.perUser: 3, .serverFull: 1])
    }
}

/// `org.example.stream.Get`: its first reply made at once, the rest by its task.
private struct StreamingAtOnce: VarlinkInterfaceHandler {
    var interfaceName: String { "org.example.stream" }
    var interfaceDescription: String { "interface org.example.stream\nmethod Get() -> (from: string)\n" }
    func declares(method name: String) -> Bool { name == "Get" }
    func answerAtOnce(_ call: VarlinkCall) -> VarlinkPreparedReply? {
        VarlinkPreparedReply(parameters: ["from": .string("memory")], continues: true)
    }
    func handle(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        ["from": .string("task")]
    }
}
