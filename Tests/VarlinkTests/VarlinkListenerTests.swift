import Foundation
import Glibc
import Synchronization
import SystemSupport
import Testing
@testable import Varlink

@Suite struct VarlinkListenerTests {
    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func refusesAPathWhereALiveServerAnswers() async throws {
        let server = try TestServer.start()
        #expect(throws: VarlinkSocketError.self) { _ = try VarlinkListener.bind(path: server.path) }
        do { _ = try VarlinkListener.bind(path: server.path) } catch { #expect(error.code == .addressInUse) }
        // The live server is untouched.
        let client = try RawConnection(path: server.path)
        try client.call("org.varlink.service.GetInfo")
        #expect(try await client.readMessage()["parameters"]?["product"] == .string("test-server"))
        await server.stop()
    }

    @Test func replacesAStaleSocketFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("stale.sock").path
        try StaleSocket.create(at: path)
        let listener = try VarlinkListener.bind(path: path, mode: 0o600)
        defer { close(listener.fileDescriptor) }
        #expect(listener.path == path)
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(try RawConnection(path: path).fd >= 0)
    }

    @Test func thePathAppearsOnlyOnceItAcceptsConnections() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ready.sock").path
        // A watcher connects the moment the path exists; before, it could land between bind and
        // listen and be refused (the soak's fault matrix saw it).
        for round in 0..<200 {
            let refused = Atomic(false)
            let watcher = NativeThread {
                let deadline = Date().addingTimeInterval(10)
                while access(path, F_OK) != 0, Date() < deadline { sched_yield() }
                guard let address = SocketOptions.unixAddress(path: path) else { return }
                let fd = SocketOptions.unixStreamSocket()
                defer { close(fd) }
                if SocketOptions.connect(fd, to: address) == ECONNREFUSED { refused.store(true, ordering: .relaxed) }
            }
            try #require(watcher.started)
            let listener = try VarlinkListener.bind(path: path)
            #expect(watcher.join(), "the watcher gives up after 10 s")
            close(listener.fileDescriptor)
            unlink(path)
            let wasRefused = refused.load(ordering: .relaxed)
            #expect(!wasRefused, "round \(round): connection refused although the path existed")
            if wasRefused { break }
        }
        // No staging name is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func leavesAFileThatIsNotASocketAlone() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("notes.txt").path
        try "keep me".write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try VarlinkListener.bind(path: path)
            Issue.record("bound over a regular file")
        } catch {
            #expect(error.code == .pathOccupied)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    }

    @Test func rejectsAPathTooLongForASocketAddress() {
        let path = "/tmp/" + String(repeating: "x", count: 200)
        do {
            _ = try VarlinkListener.bind(path: path)
            Issue.record("bound an over-long path")
        } catch {
            #expect(error.code == .pathTooLong)
        }
    }

    @Test func adoptsAnInheritedListeningSocket() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("activated.sock").path
        let bound = try VarlinkListener.bind(path: path)
        let adopted = VarlinkListener.adopt(fileDescriptor: bound.fileDescriptor)
        #expect(adopted.path == nil)
        let server = VarlinkServer(configuration: .init(vendor: "v", product: "activated", version: "1", url: "u"), handlers: [])
        let task = Task { try await server.run(on: adopted) }
        let client = try RawConnection(path: path)
        try client.call("org.varlink.service.GetInfo")
        #expect(try await client.readMessage()["parameters"]?["interfaces"] == .array([.string("org.varlink.service")]))
        server.shutdown(gracePeriodSeconds: 0)
        try await task.value
        // An adopted socket's file belongs to whoever created it (systemd): it stays.
        #expect(access(path, F_OK) == 0)
    }
}
