import Foundation
import Glibc
import Testing
@testable import Varlink

/// Calls a handler answers from `answerAtOnce`, on the event loop, without `handle`.
@Suite struct VarlinkServerAnswerAtOnceTests {
    static let interface = "org.example.atonce"

    private func start() throws -> (TestServer, AtOnceInterface, RawConnection) {
        let handler = AtOnceInterface()
        let server = try TestServer.start(extraHandlers: [handler])
        return (server, handler, try RawConnection(path: server.path))
    }

    private static func encoded(_ method: String, _ text: String, more: Bool = false, oneway: Bool = false) -> [UInt8] {
        var message: [String: JSONValue] = ["method": .string("\(interface).\(method)"), "parameters": .object(["text": .string(text)])]
        if more { message["more"] = .bool(true) }
        if oneway { message["oneway"] = .bool(true) }
        return JSONValue.object(message).serialized() + [0]
    }

    @Test func anAnswerAtOnceReachesTheClientAndHandleIsNeverCalled() async throws {
        let (server, handler, client) = try start()
        try client.send(Self.encoded("Remembered", "hello"))
        #expect(try await client.readMessage() == .object(["parameters": .object(["text": .string("hello"), "atOnce": .bool(true)])]))
        try client.send(Self.encoded("Remembered", "again"))
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("again"))
        #expect(handler.handledTexts.isEmpty)
        await server.stop()
    }

    @Test func aCallWithoutAnAnswerAtOnceGoesThroughHandle() async throws {
        let (server, handler, client) = try start()
        try client.send(Self.encoded("Remembered", ""))
        #expect(try await client.readMessage()["parameters"]?["atOnce"] == .bool(false))
        try client.send(Self.encoded("Computed", "work"))
        let reply = try await client.readMessage()
        #expect(reply["parameters"]?["atOnce"] == .bool(false))
        #expect(reply["parameters"]?["text"] == .string("work"))
        #expect(handler.handledTexts == ["", "work"])
        await server.stop()
    }

    @Test func aOnewayCallAnsweredAtOnceGetsNoReplyAndTheConnectionKeepsWorking() async throws {
        let (server, handler, client) = try start()
        try client.send(Self.encoded("Remembered", "silent", oneway: true))
        try client.send(Self.encoded("Remembered", "heard"))
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("heard"))
        try client.send(Self.encoded("Computed", "after"))
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("after"))
        #expect(handler.handledTexts == ["after"])
        await server.stop()
    }

    @Test func aMoreCallAnsweredAtOnceGetsOneFinalReplyWithoutContinues() async throws {
        let (server, handler, client) = try start()
        try client.send(Self.encoded("Remembered", "once", more: true))
        let reply = try await client.readMessage()
        #expect(reply == .object(["parameters": .object(["text": .string("once"), "atOnce": .bool(true)])]))
        #expect(reply["continues"] == nil)
        // The same connection still streams through handle.
        try client.send(Self.encoded("Computed", "streamed", more: true))
        let first = try await client.readMessage()
        let last = try await client.readMessage()
        #expect(first["continues"] == .bool(true))
        #expect(first["parameters"]?["text"] == .string("streamed (first)"))
        #expect(last["continues"] == nil)
        #expect(last["parameters"]?["text"] == .string("streamed"))
        #expect(handler.handledTexts == ["streamed"])
        await server.stop()
    }

    @Test func callsPipelinedInOneWriteAreAllAnsweredInOrder() async throws {
        let (server, handler, client) = try start()
        let batch = Self.encoded("Remembered", "1") + Self.encoded("Computed", "2") + Self.encoded("Remembered", "3")
            + Self.encoded("Remembered", "quiet", oneway: true) + Self.encoded("Computed", "4")
            + Self.encoded("Remembered", "5", more: true) + Array(#"{"method":"org.varlink.service.GetInfo"}"#.utf8) + [0]
            + Self.encoded("Remembered", "6")
        try client.send(batch)
        var replies: [JSONValue] = []
        for _ in 0..<7 { replies.append(try await client.readMessage()) }
        #expect(replies.map { $0["parameters"]?["text"] } == [.string("1"), .string("2"), .string("3"), .string("4"), .string("5"), nil, .string("6")])
        #expect(replies.map { $0["parameters"]?["atOnce"] } == [.bool(true), .bool(false), .bool(true), .bool(false), .bool(true), nil, .bool(true)])
        #expect(replies[5]["parameters"]?["product"] == .string("test-server"))
        #expect(replies.allSatisfy { $0["continues"] == nil })
        #expect(handler.handledTexts == ["2", "4"])
        await server.stop()
    }

    /// The loop writes the replies of one turn after its calls, a batch of connections at a time:
    /// with many more connections ready in one turn than one batch holds, and one of them gone
    /// before its reply is written, every other connection still gets its own reply.
    @Test func manyConnectionsReadyInOneTurnEachGetTheirReply() async throws {
        let (server, handler, first) = try start()
        try first.send(Self.encoded("Remembered", "hold"))
        #expect(try await offThread { handler.waitUntilHeld() })
        // The loop is held: these connect and send into the kernel's buffers, and the loop then
        // accepts them and finds every one of them readable in one turn.
        var clients: [RawConnection] = []
        for index in 0..<40 {
            let client = try RawConnection(path: server.path)
            try client.send(Self.encoded("Remembered", "call \(index)"))
            clients.append(client)
        }
        let gone = try RawConnection(path: server.path)
        try gone.send(Self.encoded("Remembered", "never read"))
        shutdown(gone.fd, Int32(SHUT_RDWR))
        handler.release()
        #expect(try await first.readMessage()["parameters"]?["text"] == .string("hold"))
        for (index, client) in clients.enumerated() {
            #expect(try await client.readMessage()["parameters"]?["text"] == .string("call \(index)"))
        }
        #expect(await server.waitForConnectionCount { $0 == 41 })
        #expect(handler.handledTexts.isEmpty)
        await server.stop()
    }

    @Test func aCallAnsweredAtOnceThenAHalfCloseIsAnsweredThenClosed() async throws {
        let (server, _, client) = try start()
        try client.send(Self.encoded("Remembered", "last words"))
        shutdown(client.fd, Int32(SHUT_WR))
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("last words"))
        #expect(await client.isClosedByServer())
        #expect(await server.waitForConnectionCount { $0 == 0 })
        await server.stop()
    }
}
