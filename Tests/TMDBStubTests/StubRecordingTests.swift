import Foundation
import MoviesTestSupport
import Testing
import TMDBStub

/// `--recording ROUTE=FILE`: real TMDB bodies served verbatim for their routes.
@Suite(.blocksThreads) struct StubRecordingTests {
    @Test func parsesRouteQueryStatusAndFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stub-rec-\(UUID().uuidString).json")
        try Data(#"{"page":2}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let parsed = try StubCommandLine(arguments: [
            "--recording", "/3/search/movie?query=James+Bond%20007&page=2=\(file.path)",
            "--recording", "/3/movie/0=404:\(file.path)",
        ])
        let recordings = parsed.configuration.recordings
        #expect(recordings.count == 2)
        #expect(recordings.first?.path == "/3/search/movie")
        #expect(recordings.first?.query == ["query": "James Bond 007", "page": "2"])
        #expect(recordings.first?.status == 200)
        #expect(recordings.first?.body == Array(#"{"page":2}"#.utf8))
        #expect(recordings.last?.path == "/3/movie/0")
        #expect(recordings.last?.status == 404)
        #expect(throws: StubCommandLine.InvalidArguments.self) {
            try StubCommandLine(arguments: ["--recording", "/3/movie/1=/nonexistent/file.json"])
        }
        #expect(throws: StubCommandLine.InvalidArguments.self) {
            try StubCommandLine(arguments: ["--recording", "no-equals-sign"])
        }
    }

    @Test func servesTheRecordingVerbatimOnlyForItsRouteAndOnlyWhenAuthorized() throws {
        let body = Array(#"{"page":1,"results":[{"id":7,"title":"Ελληνικά","poster_path":null,"vote_average":7.0}],"total_pages":1,"total_results":1}"#.utf8)
        try RunningStub.with({
            $0.recordings = [StubRecording(route: "/3/search/movie?query=007", body: body)]
        }) { stub in
            let recorded = try stub.get("/3/search/movie?query=007&page=1&language=en-US")
            #expect(recorded.status == 200)
            #expect(recorded.body == body)
            let other = try stub.get("/3/search/movie?query=star")
            #expect(other.status == 200)
            #expect(other.body != body)
            let unauthorized = try RawHTTPClient.send(port: stub.port, target: "/3/search/movie?query=007", headers: [:], timeoutSeconds: ProcessDeadline.replySeconds)
            #expect(unauthorized.status == 401)
        }
    }
}
