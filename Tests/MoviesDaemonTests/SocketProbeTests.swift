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
}
