import Foundation
import Glibc
import MoviesTestSupport
import Synchronization
import Testing
@testable import Varlink

/// One client cannot take the server from the others (issue 13, item 4): what it sends faster than
/// it reads stays in the kernel, not in the server; one user's connections are capped, with room
/// kept for root.
@Suite struct VarlinkServerFairnessTests {
    static func calls(_ method: String, _ parameters: [String: JSONValue], count: Int) -> [UInt8] {
        let one = JSONValue.object(["method": .string(method), "parameters": .object(parameters)]).serialized() + [0]
        return Array((0..<count).map { _ in one }.joined())
    }

    @Test func aClientThatSendsButNeverReadsIsNotBufferedByTheServer() async throws {
        let server = try TestServer.start()
        let flooder = try RawConnection(path: server.path)
        // 4 MiB of calls, each waiting 10 s in its handler: the server starts the first and holds
        // the rest unread. Before: it read them all (up to 8 MiB per connection).
        let payload = Self.calls("org.example.test.Sleep", ["milliseconds": .int(10_000)], count: 4 * 1024 * 1024 / 80)
        let sent = flooder.sendUntilStalled(payload)
        #expect(sent < payload.count, "the server read all \(payload.count) bytes")
        #expect(server.server.bufferedInputBytes <= VarlinkConnection.queuedInputLimit + 65_536, "\(server.server.bufferedInputBytes) bytes buffered")
        // Others are served meanwhile.
        let other = try RawConnection(path: server.path)
        try other.call("org.example.test.Echo", ["text": .string("still here")])
        #expect(try await other.readMessage()["parameters"]?["text"] == .string("still here"))
        await server.stop()
    }

    @Test func aLargeMessageStillArrivesWhole() async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        let text = String(repeating: "x", count: 1_000_000)
        let call = JSONValue.object(["method": .string("org.example.test.Echo"), "parameters": .object(["text": .string(text)])])
        try await client.sendLarge(call.serialized() + [0])
        #expect(try await client.readMessage()["parameters"]?["text"] == .string(text))
        await server.stop()
    }

    /// The input budget: large messages that do not fit in it wait unread, one at a time grows
    /// past it, and each waiting one is read once there is room. Small calls always get through.
    /// Before, two half-sent messages over the budget each waited for the other, and a connection
    /// held back was not polled again: both waited for the idle timeout to close them.
    @Test(arguments: [1, 2]) func largeMessagesOverTheInputBudgetEachGetTheirTurn(eventLoops: Int) async throws {
        let server = try TestServer.start {
            $0.inputBudgetBytes = 256 * 1024
            $0.eventLoops = eventLoops
        }
        let (texts, calls, connections) = try await threeLargeCallsTwoHalfSent(to: server)
        // The third, whole: the budget is spent and another message grows past it, so it waits.
        let sent = connections[2].sendUntilStalled(calls[2], stallMilliseconds: 300)
        #expect(await !connections[2].hasInput(withinMilliseconds: 300), "the third message was read past the budget")
        #expect(server.server.bufferedInputBytes < 256 * 1024 + 200 * 1024 + 65_536, "\(server.server.bufferedInputBytes) bytes held")
        let small = try RawConnection(path: server.path)
        try small.call("org.example.test.Echo", ["text": .string("small")])
        #expect(try await small.readMessage()["parameters"]?["text"] == .string("small"))
        // The second ends and is answered; the third is read then, and the first once it ends.
        try connections[1].send(Array(calls[1].suffix(16)))
        #expect(try await connections[1].readMessage()["parameters"]?["text"] == .string(texts[1]))
        try await connections[2].sendLarge(Array(calls[2][sent...]))
        #expect(try await connections[2].readMessage()["parameters"]?["text"] == .string(texts[2]))
        try connections[0].send(Array(calls[0].suffix(16)))
        #expect(try await connections[0].readMessage()["parameters"]?["text"] == .string(texts[0]))
        await server.stop()
    }

    /// A client that stops halfway through a message past the budget loses its turn after a
    /// second: the next large message is read, and the stalled one is read when it goes on.
    @Test func aTurnPastTheInputBudgetEndsWhenItsMessageStopsGrowing() async throws {
        let server = try TestServer.start { $0.inputBudgetBytes = 256 * 1024 }
        // The second takes the turn past the budget, and stops sending.
        let (texts, calls, connections) = try await threeLargeCallsTwoHalfSent(to: server)
        // The third is read once the second's turn has ended, and answered.
        let sent = connections[2].sendUntilStalled(calls[2], stallMilliseconds: 300)
        try await connections[2].sendLarge(Array(calls[2][sent...]))
        #expect(try await connections[2].readMessage()["parameters"]?["text"] == .string(texts[2]))
        // The second goes on, gets the turn again, and is answered; then the first.
        try connections[1].send(Array(calls[1].suffix(16)))
        #expect(try await connections[1].readMessage()["parameters"]?["text"] == .string(texts[1]))
        try connections[0].send(Array(calls[0].suffix(16)))
        #expect(try await connections[0].readMessage()["parameters"]?["text"] == .string(texts[0]))
        await server.stop()
    }

    /// A turn past the budget is kept by progress, not by a byte now and then: a client that
    /// trickles its message loses the turn as one that stopped does.
    @Test func aTurnPastTheInputBudgetIsNotKeptByATrickle() async throws {
        let server = try TestServer.start { $0.inputBudgetBytes = 256 * 1024 }
        // The second takes the turn past the budget; then it sends a byte every 0.4 s.
        let (texts, calls, connections) = try await threeLargeCallsTwoHalfSent(to: server)
        let trickler = connections[1].fd
        let trickled = Array(calls[1].suffix(16).dropLast())
        let ended = TrickleEnd()
        let trickle = Task {
            for byte in trickled {
                try? await Task.sleep(for: .milliseconds(400))
                _ = [byte].withUnsafeBytes { send(trickler, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }
            }
            ended.mark()
        }
        // The third is read while the trickle goes on, and answered.
        let sent = connections[2].sendUntilStalled(calls[2], stallMilliseconds: 300)
        try await connections[2].sendLarge(Array(calls[2][sent...]))
        #expect(try await connections[2].readMessage()["parameters"]?["text"] == .string(texts[2]))
        #expect(!ended.marked, "the third waited for the trickle to end")
        trickle.cancel()
        await trickle.value
        try connections[1].send([0])
        #expect(try await connections[1].readMessage()["parameters"]?["text"] == .string(texts[1]))
        try connections[0].send(Array(calls[0].suffix(16)))
        #expect(try await connections[0].readMessage()["parameters"]?["text"] == .string(texts[0]))
        await server.stop()
    }

    /// Three 200 KiB `Echo` calls for a server with a 256 KiB input budget, a connection each:
    /// the first two sent but for their last bytes (the first within the budget, the second past
    /// it, read as the first held back), the third not sent.
    private func threeLargeCallsTwoHalfSent(to server: TestServer) async throws -> (texts: [String], calls: [[UInt8]], connections: [RawConnection]) {
        let texts = ["a", "b", "c"].map { String(repeating: $0, count: 200 * 1024) }
        let calls = texts.map { text in
            JSONValue.object(["method": .string("org.example.test.Echo"), "parameters": .object(["text": .string(text)])]).serialized() + [0]
        }
        let connections = try calls.map { _ in try RawConnection(path: server.path) }
        try await connections[0].sendLarge(Array(calls[0].dropLast(16)))
        #expect(await server.waitForBufferedInput { $0 >= 190 * 1024 })
        try await connections[1].sendLarge(Array(calls[1].dropLast(16)))
        #expect(await server.waitForBufferedInput { $0 >= 390 * 1024 }, "\(server.server.bufferedInputBytes) bytes held")
        return (texts, calls, connections)
    }

    @Test func oneUserIsCappedAndTheRefusedConnectionIsToldWhy() async throws {
        // The test runs as one uid: make it unprivileged for the server.
        let server = try TestServer.start {
            $0.maxConnectionsPerUser = 3
            $0.privilegedUIDs = []
        }
        let held = try (0..<3).map { _ in try RawConnection(path: server.path) }
        #expect(await server.waitForConnectionCount { $0 == 3 })
        let refused = try RawConnection(path: server.path)
        try? refused.call("org.example.test.Echo", ["text": .string("x")])
        let reply = try await refused.readMessage()
        #expect(reply["error"] == .string("org.varlink.service.TooManyConnections"))
        #expect(reply["parameters"]?["limit"] == .int(3))
        #expect(reply["parameters"]?["reason"]?.stringValue?.contains("3 connections") == true)
        #expect(await refused.isClosedByServer())
        // The held ones still work (a closed one frees its place: `aClosedConnectionFreesItsPlace`).
        try held[0].call("org.example.test.Echo", ["text": .string("held")])
        #expect(try await held[0].readMessage()["parameters"]?["text"] == .string("held"))
        await server.stop()
    }

    @Test func aPeerTheServerCannotNameIsToldPermissionDeniedAndClosed() async throws {
        // The test's own uid stands for the overflow uid of a peer outside the namespace.
        let server = try TestServer.start { $0.unmappedPeerUID = getuid() }
        let refused = try RawConnection(path: server.path)
        try? refused.call("org.example.test.Echo", ["text": .string("x")])
        let reply = try await refused.readMessage()
        #expect(reply["error"] == .string("org.varlink.service.PermissionDenied"))
        #expect(await refused.isClosedByServer())
        #expect(await server.waitForConnectionCount { $0 == 0 })
        await server.stop()
    }

    @Test func theVarlinkClientReadsTheRefusalEvenIfItsWriteFails() async throws {
        let server = try TestServer.start {
            $0.maxConnectionsPerUser = 1
            $0.privilegedUIDs = []
        }
        let holder = try RawConnection(path: server.path)
        #expect(await server.waitForConnectionCount { $0 == 1 })
        let error = try await offThread { () throws -> String? in
            let client = try VarlinkClient(unixPath: server.path, timeoutSeconds: ProcessDeadline.replySeconds)
            var name: String?
            try client.call("org.example.test.Echo", parameters: ["text": .string("x")]) { name = $0.error }
            return name
        }
        #expect(error == "org.varlink.service.TooManyConnections")
        _ = holder
        await server.stop()
    }
}

@Suite struct ConnectionAdmissionTests {
    static func peer(_ uid: UInt32) -> PeerCredentials { PeerCredentials(pid: 1, uid: uid, gid: uid) }

    static var configuration: VarlinkServerConfiguration {
        var configuration = VarlinkServerConfiguration(vendor: "v", product: "p", version: "1", url: "u")
        configuration.maxConnections = 10
        configuration.reservedConnections = 2
        configuration.maxConnectionsPerUser = 4
        configuration.privilegedUIDs = [0, 999]
        return configuration
    }

    @Test func aUserGetsUpToItsCap() {
        var admission = ConnectionAdmission()
        for open in 0..<4 {
            #expect(admission.refusal(for: Self.peer(1000), open: open, configuration: Self.configuration) == nil)
            admission.opened(Self.peer(1000))
        }
        let refusal = admission.refusal(for: Self.peer(1000), open: 4, configuration: Self.configuration)
        #expect(refusal?.limit == 4)
        // Another user is unaffected; closing one frees a place.
        #expect(admission.refusal(for: Self.peer(1001), open: 4, configuration: Self.configuration) == nil)
        admission.closed(Self.peer(1000))
        #expect(admission.refusal(for: Self.peer(1000), open: 3, configuration: Self.configuration) == nil)
    }

    @Test func rootAndTheServiceUserAreExemptAndHaveTheReserve() {
        var admission = ConnectionAdmission()
        for _ in 0..<4 { admission.opened(Self.peer(0)) }
        #expect(admission.refusal(for: Self.peer(0), open: 4, configuration: Self.configuration) == nil)
        // Others share 8 of the 10; the last 2 are for root and uid 999.
        #expect(admission.refusal(for: Self.peer(1000), open: 8, configuration: Self.configuration)?.limit == 8)
        #expect(admission.refusal(for: Self.peer(999), open: 8, configuration: Self.configuration) == nil)
        #expect(admission.refusal(for: Self.peer(0), open: 9, configuration: Self.configuration) == nil)
        #expect(admission.refusal(for: Self.peer(0), open: 10, configuration: Self.configuration)?.limit == 10)
    }

    @Test func aPeerWithoutCredentialsIsAnOrdinaryUser() {
        #expect(ConnectionAdmission().refusal(for: nil, open: 8, configuration: Self.configuration)?.limit == 8)
        var unmapped = Self.configuration
        unmapped.unmappedPeerUID = 65534
        #expect(ConnectionAdmission().refusal(for: nil, open: 0, configuration: unmapped) == nil)
    }

    @Test func aPeerTheServerCannotNameIsRefusedWhateverTheLimits() {
        var configuration = Self.configuration
        configuration.unmappedPeerUID = 65534
        configuration.privilegedUIDs = [0, 65534]
        #expect(ConnectionAdmission().refusal(for: Self.peer(65534), open: 0, configuration: configuration) == .unnamedPeer)
        #expect(ConnectionAdmission().refusal(for: Self.peer(1000), open: 0, configuration: configuration) == nil)
        #expect(ConnectionAdmission().refusal(for: Self.peer(65534), open: 0, configuration: Self.configuration) == nil, "unset: 65534 is a user like any other")
    }
}

/// Whether a trickling client has sent its last byte (set from its task, read by the test).
private final class TrickleEnd: Sendable {
    private let state = Mutex(false)
    func mark() { state.withLock { $0 = true } }
    var marked: Bool { state.withLock { $0 } }
}
