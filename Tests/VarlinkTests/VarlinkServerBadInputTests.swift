import Testing
@testable import Varlink

/// Bad input gets the right error reply, and the server keeps serving everyone.
@Suite struct VarlinkServerBadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let bytes: [UInt8]
        let error: String
        let parameter: String
        let value: String
        var testDescription: String { label }

        init(_ label: String, _ text: String, _ error: String, _ parameter: String, _ value: String) {
            self.init(label, Array(text.utf8), error, parameter, value)
        }

        init(_ label: String, _ bytes: [UInt8], _ error: String, _ parameter: String, _ value: String) {
            self.label = label
            self.bytes = bytes
            self.error = error
            self.parameter = parameter
            self.value = value
        }
    }

    static let invalid = "org.varlink.service.InvalidParameter"

    static let cases: [Case] = [
        Case("malformed JSON", #"{"method": "org.example.test.Echo""#, invalid, "parameter", "message"),
        Case("not an object", #"["org.example.test.Echo"]"#, invalid, "parameter", "message"),
        Case("a bare string", #""hello""#, invalid, "parameter", "message"),
        Case("missing method", #"{"parameters":{}}"#, invalid, "parameter", "method"),
        Case("method not a string", #"{"method":42}"#, invalid, "parameter", "method"),
        Case("method without interface", #"{"method":"Echo"}"#, invalid, "parameter", "method"),
        Case("method with bad characters", #"{"method":"org.example.test.Ec ho"}"#, invalid, "parameter", "method"),
        Case("unknown interface", #"{"method":"org.nowhere.Thing.Do"}"#, "org.varlink.service.InterfaceNotFound", "interface", "org.nowhere.Thing"),
        Case("unknown method", #"{"method":"org.example.test.Nope"}"#, "org.varlink.service.MethodNotFound", "method", "org.example.test.Nope"),
        Case("unknown service method", #"{"method":"org.varlink.service.Nope"}"#, "org.varlink.service.MethodNotFound", "method", "org.varlink.service.Nope"),
        Case("parameters not an object", #"{"method":"org.example.test.Echo","parameters":["x"]}"#, invalid, "parameter", "parameters"),
        Case("more not a bool", #"{"method":"org.example.test.Echo","more":"yes"}"#, invalid, "parameter", "more"),
        Case("invalid UTF-8", Array(#"{"method":"org.example.test.Echo","parameters":{"text":""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8), invalid, "parameter", "message"),
        Case("deep nesting", Array((#"{"method":"org.example.test.Echo","parameters":{"text":"#
            + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}}").utf8), invalid, "parameter", "message"),
        Case("missing required parameter", #"{"method":"org.example.test.Echo","parameters":{}}"#, invalid, "parameter", "text"),
    ]

    @Test(arguments: cases)
    func repliesWithTheRightErrorAndKeepsServing(_ badInput: Case) async throws {
        let server = try TestServer.start()
        let client = try RawConnection(path: server.path)
        try client.send(badInput.bytes + [0])
        let reply = try await client.readMessage()
        #expect(reply["error"] == .string(badInput.error))
        #expect(reply["parameters"]?[badInput.parameter] == .string(badInput.value))

        try client.call("org.example.test.Echo", ["text": .string("same connection")])
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("same connection"))
        let other = try RawConnection(path: server.path)
        try other.call("org.example.test.Echo", ["text": .string("other connection")])
        #expect(try await other.readMessage()["parameters"]?["text"] == .string("other connection"))
        await server.stop()
    }

    @Test func answersAnOversizeMessageWithAnErrorThenCloses() async throws {
        let server = try TestServer.start { $0.maxMessageBytes = 1024 }
        let client = try RawConnection(path: server.path)
        let huge = #"{"method":"org.example.test.Echo","parameters":{"text":""# + String(repeating: "a", count: 4000) + #""}}"#
        try client.send(Array(huge.utf8))
        let reply = try await client.readMessage()
        #expect(reply["error"] == .string(Self.invalid))
        #expect(reply["parameters"]?["parameter"] == .string("message"))
        #expect(await client.isClosedByServer())

        let other = try RawConnection(path: server.path)
        try other.call("org.example.test.Echo", ["text": .string(String(repeating: "b", count: 900))])
        #expect(try await other.readMessage()["parameters"]?["text"]?.stringValue?.count == 900)
        await server.stop()
    }

    /// An oversize message that arrives whole, behind a call (so it is read under the queued-input
    /// limit, not the message limit), is refused too: the size is checked on a complete message, not
    /// only on one still growing.
    @Test func answersAWholeOversizeMessageQueuedBehindACallWithAnErrorThenCloses() async throws {
        let server = try TestServer.start { $0.maxMessageBytes = 1024 }
        let client = try RawConnection(path: server.path)
        let first = JSONValue.object(["method": .string("org.example.test.Echo"), "parameters": .object(["text": .string("first")])])
        let huge = JSONValue.object(["method": .string("org.example.test.Echo"), "parameters": .object(["text": .string(String(repeating: "a", count: 2000))])])
        try client.send(first.serialized() + [0] + huge.serialized() + [0])
        #expect(try await client.readMessage()["parameters"]?["text"] == .string("first"))
        let reply = try await client.readMessage()
        #expect(reply["error"] == .string(Self.invalid))
        #expect(reply["parameters"]?["parameter"] == .string("message"))
        #expect(await client.isClosedByServer())
        await server.stop()
    }

    @Test func cancelsTheHandlerWhenTheClientDisconnectsMidStream() async throws {
        let server = try TestServer.start()
        do {
            let client = try RawConnection(path: server.path)
            try client.call("org.example.test.Hang", ["tag": .string("gone")], more: true)
            // The handler runs before the client goes: a call read together with the hang-up would
            // be answered (a half-close), not cancelled.
            #expect(await server.probe.waitFor("started:gone"))
        }
        #expect(await server.probe.waitFor("gone"))
        #expect(await server.waitForConnectionCount { $0 == 0 })

        let other = try RawConnection(path: server.path)
        try other.call("org.example.test.Echo", ["text": .string("still here")])
        #expect(try await other.readMessage()["parameters"]?["text"] == .string("still here"))
        await server.stop()
    }
}
