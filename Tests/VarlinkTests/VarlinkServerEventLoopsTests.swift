import Foundation
import Glibc
import Synchronization
import Testing
@testable import Varlink

/// Issue 44: several event loops, each with its own epoll set; connections spread over them, the
/// loop with the fewest taking the next, and limits held across them.
@Suite struct VarlinkServerEventLoopsTests {
    /// Answers every call at once, on the loop that read it, recording that loop's thread.
    final class ThreadRecorder: VarlinkInterfaceHandler {
        let interfaceName = "org.example.loops"
        let interfaceDescription = "interface org.example.loops\n\nmethod Where() -> ()\n"
        private let threads = Mutex<Set<UInt>>([])

        var distinctThreads: Int { threads.withLock { $0.count } }

        func answerAtOnce(_ call: VarlinkCall) -> VarlinkPreparedReply? {
            threads.withLock { _ = $0.insert(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self()))))) }
            return VarlinkPreparedReply(parameters: [:], continues: false)
        }

        func handle(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] { [:] }

        func declares(method name: String) -> Bool { name == "Where" }
    }

    static let call = Array(#"{"method":"org.example.loops.Where","parameters":{}}"#.utf8) + [0]

    @Test(arguments: [1, 2, 3])
    func connectionsAreSpreadOverEveryLoop(loops: Int) async throws {
        let recorder = ThreadRecorder()
        let server = try TestServer.start(extraHandlers: [recorder]) { $0.eventLoops = loops }
        var clients: [RawConnection] = []
        for _ in 0..<(2 * loops) {
            let client = try RawConnection(path: server.path)
            try client.send(Self.call)
            _ = try await client.readMessage()
            clients.append(client)
        }
        #expect(recorder.distinctThreads == loops, "calls were answered on \(recorder.distinctThreads) loops")
        #expect(server.server.connectionCount == 2 * loops)
        clients.removeAll()
        #expect(await server.waitForConnectionCount { $0 == 0 })
        await server.stop()
    }

    @Test func thePerUserLimitHoldsAcrossLoops() async throws {
        let server = try TestServer.start {
            $0.eventLoops = 2
            $0.maxConnectionsPerUser = 3
            $0.privilegedUIDs = []
        }
        var clients: [RawConnection] = []
        for _ in 0..<3 {
            let client = try RawConnection(path: server.path)
            try client.call("org.varlink.service.GetInfo")
            _ = try await client.readMessage()
            clients.append(client)
        }
        let fourth = try RawConnection(path: server.path)
        // The refusal is sent at once and the connection closed: the call may find it closed
        // (as in VarlinkServerFairnessTests).
        try? fourth.call("org.varlink.service.GetInfo")
        #expect(try await fourth.readMessage()["error"] == .string("org.varlink.service.TooManyConnections"))
        await server.stop()
    }
}
