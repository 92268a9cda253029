import Foundation
import MoviesTestSupport
import Testing

/// Recent searches are private (issue 28): each local user sees only the queries they searched,
/// as the daemon tells users apart by the socket's peer credentials.
@Suite("private search history", .serialized, .blocksThreads)
struct PrivateHistoryEndToEndTests {
    @Test("root and nobody each see only their own recent searches")
    func eachUserSeesTheirOwn() throws {
        let setpriv = "/usr/bin/setpriv"
        guard ToolRequirement.require(getuid() == 0 && ToolRequirement.exists(setpriv), "root and setpriv (to search as another user)") else { return }
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        try sandbox.startStub()
        chmod(sandbox.directory.path, 0o755)
        try sandbox.startDaemon()
        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", BinaryLocator.path("movies"), "--socket", sandbox.socketPath]

        #expect(try sandbox.movies(["search", "The Matrix"]).status == 0)
        let nobodySearch = try ProcessRunner.run(setpriv, asNobody + ["search", "Alien"], environment: ["NO_COLOR": "1"])
        #expect(nobodySearch.status == 0, "\(nobodySearch.stderr)")

        let rootRecent = try sandbox.movies(["recent"])
        #expect(rootRecent.status == 0)
        #expect(rootRecent.stdout.contains("The Matrix"))
        #expect(!rootRecent.stdout.contains("Alien"), "root sees nobody's search: \(rootRecent.stdout)")
        let nobodyRecent = try ProcessRunner.run(setpriv, asNobody + ["recent"], environment: ["NO_COLOR": "1"])
        #expect(nobodyRecent.status == 0, "\(nobodyRecent.stderr)")
        #expect(nobodyRecent.stdout.contains("Alien"))
        #expect(!nobodyRecent.stdout.contains("The Matrix"), "nobody sees root's search: \(nobodyRecent.stdout)")

        // Clearing is one's own: nobody forgets Alien, root keeps The Matrix.
        let cleared = try ProcessRunner.run(setpriv, asNobody + ["recent", "--clear"], environment: ["NO_COLOR": "1"])
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(cleared.stdout.contains("Forgot 1 recent query"), "\(cleared.stdout)")
        let afterClear = try ProcessRunner.run(setpriv, asNobody + ["recent"], environment: ["NO_COLOR": "1"])
        #expect(afterClear.status == 0 && afterClear.stdout.isEmpty, "piped: no queries, and nothing else: \(afterClear.stdout)")
        #expect(try sandbox.movies(["recent"]).stdout.contains("The Matrix"))
    }
}
