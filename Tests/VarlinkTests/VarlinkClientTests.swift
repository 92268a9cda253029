import Foundation
import Glibc
import MoviesTestSupport
import Testing
@testable import Varlink

@Suite struct VarlinkClientTests {
    @Test func callsAMethodAndReceivesItsReply() async throws {
        let server = try TestServer.start()
        let path = server.path
        let replies = try await offThread {
            let client = try VarlinkClient(unixPath: path, timeoutSeconds: ProcessDeadline.replySeconds)
            defer { client.close() }
            var replies: [VarlinkReply] = []
            try client.call("org.example.test.Echo", parameters: ["text": .string("héllo")]) { replies.append($0) }
            return replies
        }
        #expect(replies.count == 1)
        #expect(replies.first?.parameters["text"] == .string("héllo"))
        #expect(replies.first?.continues == false)
        #expect(replies.first?.error == nil)
        await server.stop()
    }

    @Test func deliversEveryReplyOfAStreamThenReturns() async throws {
        let server = try TestServer.start()
        let path = server.path
        let replies = try await offThread {
            let client = try VarlinkClient(unixPath: path, timeoutSeconds: ProcessDeadline.replySeconds)
            var replies: [VarlinkReply] = []
            try client.call("org.example.test.Count", parameters: ["count": .int(4)], more: true) { replies.append($0) }
            // The connection stays usable for a second call.
            try client.call("org.example.test.Echo", parameters: ["text": .string("again")]) { replies.append($0) }
            return replies
        }
        #expect(replies.map { $0.parameters["index"] } == [.int(0), .int(1), .int(2), .int(3), nil])
        #expect(replies.map(\.continues) == [true, true, true, false, false])
        #expect(replies.last?.parameters["text"] == .string("again"))
        await server.stop()
    }

    @Test func deliversAnErrorReplyAsTheFinalReply() async throws {
        let server = try TestServer.start()
        let path = server.path
        let replies = try await offThread {
            let client = try VarlinkClient(unixPath: path)
            var replies: [VarlinkReply] = []
            try client.call("org.example.test.Nope") { replies.append($0) }
            return replies
        }
        #expect(replies.count == 1)
        #expect(replies.first?.error == "org.varlink.service.MethodNotFound")
        #expect(replies.first?.parameters["method"] == .string("org.example.test.Nope"))
        await server.stop()
    }

    @Test func reportsAMissingSocketAsConnectFailedWithENOENT() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vl-missing-\(UUID().uuidString.prefix(8)).sock").path
        do {
            _ = try VarlinkClient(unixPath: path)
            Issue.record("connected to a socket that does not exist")
        } catch {
            #expect(error.code == .connectFailed(ENOENT))
            #expect(error.path == path)
            #expect(error.description.contains(path))
        }
    }

    @Test func reportsAStaleSocketAsConnectionRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("stale.sock").path
        try StaleSocket.create(at: path)
        #expect(throws: VarlinkClientError.self) { _ = try VarlinkClient(unixPath: path) }
        do { _ = try VarlinkClient(unixPath: path) } catch { #expect(error.code == .connectFailed(ECONNREFUSED)) }
    }

    @Test func timesOutWhenNoReplyComes() async throws {
        let server = try TestServer.start()
        let path = server.path
        let code = try await offThread { () -> VarlinkClientError.Code? in
            let client = try VarlinkClient(unixPath: path, timeoutSeconds: 1)
            do {
                try client.call("org.example.test.Hang", parameters: ["tag": .string("client-timeout")]) { _ in }
                return nil
            } catch let error as VarlinkClientError {
                return error.code
            }
        }
        #expect(code == .timedOut)
        // Whether the server had started the call when the client gave up depends on scheduling;
        // cancellation on a hang-up is checked in cancelsTheHandlerWhenTheClientDisconnectsMidStream.
        // Either way the server goes on serving.
        let echoed = try await offThread {
            let client = try VarlinkClient(unixPath: path, timeoutSeconds: Int(ProcessDeadline.seconds))
            defer { client.close() }
            var replies: [VarlinkReply] = []
            try client.call("org.example.test.Echo", parameters: ["text": .string("still here")]) { replies.append($0) }
            return replies
        }
        #expect(echoed.first?.parameters["text"] == .string("still here"))
        await server.stop()
    }

    @Test func returnsAtOnceForAOnewayCall() async throws {
        let server = try TestServer.start()
        let path = server.path
        let count = try await offThread {
            let client = try VarlinkClient(unixPath: path, timeoutSeconds: ProcessDeadline.replySeconds)
            var count = 0
            try client.call("org.example.test.Echo", parameters: ["text": .string("x")], oneway: true) { _ in count += 1 }
            try client.call("org.example.test.Echo", parameters: ["text": .string("y")]) { _ in count += 1 }
            return count
        }
        #expect(count == 1)
        await server.stop()
    }
}
