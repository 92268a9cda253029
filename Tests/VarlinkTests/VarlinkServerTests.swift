import Foundation
import Glibc
import MoviesTestSupport
import Testing
@testable import Varlink

/// The Varlink protocol as the server speaks it.
@Suite struct VarlinkServerTests {
    @Test func getInfoDescribesTheServiceAndItsInterfaces() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.varlink.service.GetInfo")
        let reply = try await client.readMessage()
        #expect(reply == .object(["parameters": .object([
            "vendor": .string("Example"), "product": .string("test-server"), "version": .string("1.2.3"),
            "url": .string("https://example.org"),
            "interfaces": .array([.string("org.varlink.service"), .string("org.example.test")]),
        ])]))
        await server.stop()
    }

    @Test func getInterfaceDescriptionServesEachInterfaceVerbatim() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.varlink.service.GetInterfaceDescription", ["interface": .string("org.example.test")])
        let own = try await client.readMessage()
        #expect(own["parameters"]?["description"]?.stringValue == TestInterface(probe: server.probe).interfaceDescription)
        try client.call("org.varlink.service.GetInterfaceDescription", ["interface": .string("org.varlink.service")])
        let service = try await client.readMessage()
        #expect(service["parameters"]?["description"]?.stringValue?.contains("interface org.varlink.service") == true)
        try client.call("org.varlink.service.GetInterfaceDescription", ["interface": .string("org.nope")])
        let missing = try await client.readMessage()
        #expect(missing["error"] == .string("org.varlink.service.InterfaceNotFound"))
        #expect(missing["parameters"]?["interface"] == .string("org.nope"))
        await server.stop()
    }

    @Test func splitsTwoMessagesSentInOneWrite() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        let first = #"{"method":"org.example.test.Echo","parameters":{"text":"one"}}"#
        let second = #"{"method":"org.example.test.Echo","parameters":{"text":"two"}}"#
        try client.send(Array(first.utf8) + [0] + Array(second.utf8) + [0])
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("one"))
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("two"))
        await server.stop()
    }

    @Test func joinsOneMessageSplitAcrossWrites() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        let message = Array(#"{"method":"org.example.test.Echo","parameters":{"text":"ünïcode"}}"#.utf8) + [0]
        try client.send(Array(message[..<10]))
        try await Task.sleep(for: .milliseconds(20))
        try client.send(Array(message[10..<31]))
        try await Task.sleep(for: .milliseconds(20))
        try client.send(Array(message[31...]))
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("ünïcode"))
        await server.stop()
    }

    @Test func answersPipelinedCallsInOrder() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Sleep", ["milliseconds": .int(100)])
        try client.call("org.varlink.service.GetInfo")
        try client.call("org.example.test.Echo", ["text": .string("last")])
        #expect(try await client.readMessage() == .object(["parameters": .object([:])]))
        #expect(try await client.readMessage()["parameters"]?["product"] == .string("test-server"))
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("last"))
        await server.stop()
    }

    @Test func streamsMoreRepliesWithContinuesOnAllButTheLast() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Count", ["count": .int(3)], more: true)
        var replies: [JSONValue] = []
        for _ in 0..<3 { replies.append(try await client.readMessage()) }
        #expect(replies.map { $0["parameters"]?["index"] } == [.int(0), .int(1), .int(2)])
        #expect(replies.map { $0["continues"] } == [.bool(true), .bool(true), nil])
        for reply in replies {
            let keys = Set(reply.objectValue.map { Array($0.keys) } ?? [])
            #expect(keys.isSubset(of: ["parameters", "continues", "error"]))
        }
        await server.stop()
    }

    @Test func dropsIntermediateRepliesOfACallWithoutMore() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Count", ["count": .int(2)])
        #expect(try await client.readMessage()["error"] == .string("org.varlink.service.ExpectedMore"))
        await server.stop()
    }

    @Test func sendsNoReplyToAOnewayCall() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Echo", ["text": .string("silent")], oneway: true)
        try client.call("org.example.test.Echo", ["text": .string("heard")])
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("heard"))
        await server.stop()
    }

    @Test func refusesUpgrade() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.sendMessage(#"{"method":"org.example.test.Echo","parameters":{"text":"x"},"upgrade":true}"#)
        let reply = try await client.readMessage()
        #expect(reply["error"] == .string("org.varlink.service.InvalidParameter"))
        #expect(reply["parameters"]?["parameter"] == .string("upgrade"))
        await server.stop()
    }

    @Test func passesHandlerErrorsThrough() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Unimplemented")
        let reply = try await client.readMessage()
        #expect(reply["error"] == .string("org.varlink.service.MethodNotImplemented"))
        #expect(reply["parameters"]?["method"] == .string("org.example.test.Unimplemented"))
        await server.stop()
    }

    @Test func exposesThePeerCredentialsOfTheCaller() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.WhoAmI")
        let parameters = try await client.readMessage()["parameters"]
        #expect(parameters?["pid"] == .int(Int64(getpid())))
        #expect(parameters?["uid"] == .int(Int64(getuid())))
        #expect(parameters?["gid"] == .int(Int64(getgid())))
        await server.stop()
    }

    @Test func shutdownLetsTheCallInFlightFinishThenRemovesTheSocket() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Sleep", ["milliseconds": .int(200)])
        // The call is in flight (a call the server has not read yet is not, and is not answered).
        #expect(await server.probe.waitFor("started:sleep"))
        server.server.shutdown(gracePeriodSeconds: 5)
        #expect(try await client.readMessage() == .object(["parameters": .object([:])]))
        #expect(await client.isClosedByServer())
        await server.waitUntilStopped()
        #expect(access(server.path, F_OK) != 0)
        await server.stop()
    }

    @Test func shutdownCancelsCallsStillRunningAfterTheGracePeriod() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Hang", ["tag": .string("grace")])
        #expect(await server.waitForConnectionCount { $0 == 1 })
        #expect(await server.probe.waitFor("started:grace"))
        server.server.shutdown(gracePeriodSeconds: 0)
        await server.waitUntilStopped()
        #expect(await server.probe.waitFor("grace"))
        #expect(await client.isClosedByServer())
        #expect(server.server.connectionCount == 0)
        await server.stop()
    }

    /// A shutdown with no grace after a graceful one ends the wait at once (systemd's stop after
    /// its first request, the task cancelled): before, the first grace period ran out regardless.
    @Test func aShorterShutdownAfterAGracefulOneEndsTheGraceAtOnce() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Hang", ["tag": .string("cut")])
        #expect(await server.probe.waitFor("started:cut"))
        // Longer than the waits below (ProcessDeadline), so that only the second request can end it.
        server.server.shutdown(gracePeriodSeconds: 3 * Int(ProcessDeadline.seconds))
        #expect(await !client.hasInput(withinMilliseconds: 200), "the call in flight is given its grace")
        server.server.shutdown(gracePeriodSeconds: 0)
        #expect(await server.probe.waitFor("cut"), "the call was cancelled")
        #expect(await client.isClosedByServer())
        await server.waitUntilStopped()
        await server.stop()
    }

    @Test func cancellingTheRunningTaskShutsTheServerDown() async throws {
        let server = VarlinkServer(configuration: .init(vendor: "v", product: "p", version: "1", url: "u"), handlers: [])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cancel.sock").path
        let listener = try VarlinkListener.bind(path: path)
        let task = Task { try await server.run(on: listener) }
        let client = try RawConnection(path: path)
        try client.call("org.varlink.service.GetInfo")
        #expect(try await client.readMessage()["parameters"]?["product"] == .string("p"))
        task.cancel()
        try await task.value
        #expect(await client.isClosedByServer())
        #expect(access(path, F_OK) != 0)
    }

    @Test func answersAClientThatShutsDownItsSendingSideThenCloses() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Sleep", ["milliseconds": .int(50)])
        try client.call("org.example.test.Echo", ["text": .string("after half-close")])
        shutdown(client.fd, Int32(SHUT_WR))
        #expect(try await client.readMessage() == .object(["parameters": .object([:])]))
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("after half-close"))
        #expect(await client.isClosedByServer())
        #expect(await server.waitForConnectionCount { $0 == 0 })
        await server.stop()
    }

    @Test func answersAMessageFollowedAtOnceByAHalfClose() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.call("org.example.test.Echo", ["text": .string("then EOF")])
        shutdown(client.fd, Int32(SHUT_WR))
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("then EOF"))
        #expect(await client.isClosedByServer())
        #expect(await server.waitForConnectionCount { $0 == 0 })
        await server.stop()
    }

    @Test func joinsAMessageLargerThanOneReadSplitAcrossTwoWrites() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        let text = String(repeating: "abcdefghij", count: 15_000)  // 150 KB: several full reads
        let message = JSONValue.object(["method": .string("org.example.test.Echo"), "parameters": .object(["text": .string(text)])]).serialized() + [0]
        let half = message.count / 2
        try await client.sendLarge(Array(message[..<half]))
        try await Task.sleep(for: .milliseconds(20))
        try await client.sendLarge(Array(message[half...]))
        #expect(try await client.readMessage()["parameters"]?["text"] == .string(text))
        try client.call("org.example.test.Echo", ["text": .string("next")])
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("next"))
        await server.stop()
    }

    /// `org.example.chatty`: `Talk` sends two intermediate replies whether or not the call asked for
    /// them (`more`), as a careless handler might; the server must drop them for a call without `more`.
    struct ChattyInterface: VarlinkInterfaceHandler {
        var interfaceName: String { "org.example.chatty" }
        var interfaceDescription: String { "interface org.example.chatty\n\nmethod Talk() -> (index: int)\n" }
        func declares(method name: String) -> Bool { name == "Talk" }
        func handle(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
            await replies.send(["index": .int(0)])
            await replies.send(["index": .int(1)])
            return ["index": .int(2)]
        }
    }

    @Test func dropsTheIntermediateRepliesAHandlerSendsForACallWithoutMore() async throws {
        let server = try TestServer.start(extraHandlers: [ChattyInterface()])
        let client = try RawConnection(path: server.path)
        try client.call("org.example.chatty.Talk")
        #expect(try await client.readMessage() == .object(["parameters": .object(["index": .int(2)])]))
        try client.call("org.example.chatty.Talk", more: true)
        var replies: [JSONValue] = []
        for _ in 0..<3 { replies.append(try await client.readMessage()) }
        #expect(replies.map { $0["parameters"]?["index"] } == [.int(0), .int(1), .int(2)])
        #expect(replies.map { $0["continues"] } == [.bool(true), .bool(true), nil])
        await server.stop()
    }

    /// `oneway` wins over `more`, and holds for the service's own methods too.
    @Test func sendsNoReplyToAOnewayStreamNorToAOnewayServiceCall() async throws {
        let server = try TestServer.start(extraHandlers: [ChattyInterface()])
        let client = try RawConnection(path: server.path)
        try client.call("org.example.chatty.Talk", more: true, oneway: true)
        try client.call("org.example.test.Count", ["count": .int(3)], more: true, oneway: true)
        try client.call("org.varlink.service.GetInfo", oneway: true)
        try client.call("org.example.test.Echo", ["text": .string("heard")])
        #expect(try await client.readMessage() == .object(["parameters": .object(["text": .string("heard")])]))
        await server.stop()
    }

    @Test func refusesUpgradeOfTheServiceInterface() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.sendMessage(#"{"method":"org.varlink.service.GetInfo","upgrade":true}"#)
        let reply = try await client.readMessage()
        #expect(reply["error"] == .string("org.varlink.service.InvalidParameter"))
        #expect(reply["parameters"]?["parameter"] == .string("upgrade"))
        await server.stop()
    }

    /// `org.example.gate`: `Pass` records `started` in its probe, then replies once the test
    /// records `open` (or the hang guard passes).
    struct GateInterface: VarlinkInterfaceHandler {
        let probe: CancellationProbe
        var interfaceName: String { "org.example.gate" }
        var interfaceDescription: String { "interface org.example.gate\n\nmethod Pass() -> ()\n" }
        func declares(method name: String) -> Bool { name == "Pass" }
        func handle(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
            probe.record("started")
            _ = await probe.waitFor("open")
            return [:]
        }
    }

    /// A shutdown closes idle connections at once, and a busy one once its call in flight has
    /// replied, starting none of the calls it has queued; only a call still running waits for the
    /// grace deadline. The grace period outlasts every wait here, so a connection that is only
    /// closed at the deadline fails the test rather than passing late.
    @Test func shutdownClosesIdleConnectionsAtOnceAndStartsNoQueuedCall() async throws {
        let gate = CancellationProbe()
        let server = try TestServer.start(extraHandlers: [GateInterface(probe: gate)])
        let idle = try RawConnection(path: server.path)
        let busy = try RawConnection(path: server.path)
        let hanging = try RawConnection(path: server.path)
        try hanging.call("org.example.test.Hang", ["tag": .string("drain")])
        #expect(await server.probe.waitFor("started:drain"))
        let inFlight = #"{"method":"org.example.gate.Pass"}"#
        let queued = #"{"method":"org.example.test.Echo","parameters":{"text":"queued"}}"#
        try busy.send(Array(inFlight.utf8) + [0] + Array(queued.utf8) + [0])
        #expect(await gate.waitFor("started"))
        #expect(await server.waitForConnectionCount { $0 == 3 })
        server.server.shutdown(gracePeriodSeconds: 2 * Int(ProcessDeadline.seconds))
        #expect(await idle.isClosedByServer())
        // The call in flight ends after the shutdown (whose event the loop takes first) and is
        // answered; the one queued behind it is never started.
        gate.record("open")
        #expect(try await busy.readMessage() == .object(["parameters": .object([:])]))
        do {
            let extra = try await busy.readMessage()
            Issue.record("a call queued behind the one in flight was started during the drain: \(extra)")
        } catch RawConnection.Failure.closed {}
        // The call still running is not cut short before the grace deadline.
        #expect(await server.waitForConnectionCount { $0 == 1 })
        #expect(await !hanging.hasInput(withinMilliseconds: 300))
        // Its client leaving ends it, and with it the server.
        shutdown(hanging.fd, Int32(SHUT_RDWR))
        #expect(await server.probe.waitFor("drain"))
        await server.waitUntilStopped()
        await server.stop()
    }
}
