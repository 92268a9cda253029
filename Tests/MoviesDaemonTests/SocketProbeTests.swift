import Glibc
import Testing
@testable import MoviesDaemon

@Suite struct SocketProbeTests {
    @Test func liveListenerIsServingAndStaleOrMissingIsNot() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = directory.file("io.moviesd.Movies")
        #expect(!SocketProbe.isServing(path: path))
        let listener = try TestSocket.streamListener(path)
        #expect(SocketProbe.isServing(path: path))
        listener.close()
        #expect(!SocketProbe.isServing(path: path))
    }

    @Test func refusalNamesTheSocket() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = directory.file("io.moviesd.Movies")
        try SocketProbe.refuseIfServing(path: path)
        let listener = try TestSocket.streamListener(path)
        defer { listener.close() }
        do {
            try SocketProbe.refuseIfServing(path: path)
            Issue.record("a served socket was not refused")
        } catch {
            #expect(error.message == "moviesd: another moviesd is already serving \(path) (stop it, or pass --socket PATH)")
            #expect(error.exitCode == 69)
        }
    }

    @Test func abstractSocketsAreProbedToo() throws {
        let name = "@moviesd-probe-\(getpid())"
        #expect(!SocketProbe.isServing(path: name))
        let listener = try TestSocket.streamListener(name)
        defer { listener.close() }
        #expect(SocketProbe.isServing(path: name))
    }
}
