import Foundation
import MoviesTestSupport
import Testing

/// `--owner USER|UID` and `watchlist ls --all-users` on the real binaries (issue 31): root works
/// on nobody's personal list by name and by uid, nobody is refused root's with 77 and a sentence
/// saying only root may, an unknown user is 64; `movies status` shows nobody the refreshes of
/// their own lists, never root's.
@Suite("watchlists of another user, end to end", .serialized, .blocksThreads)
struct WatchlistOwnerEndToEndTests {
    @Test("root edits, lists and refreshes nobody's list with --owner; nobody is refused root's")
    func rootActsOnAnotherUsersLists() throws {
        let setpriv = "/usr/bin/setpriv"
        guard ToolRequirement.require(getuid() == 0 && ToolRequirement.exists(setpriv), "root and setpriv (to call as another user)") else { return }
        let sandbox = try WatchlistEndToEndTests.started(posters: false)
        defer { sandbox.shutdown() }
        chmod(sandbox.directory.path, 0o755)
        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", BinaryLocator.path("movies"), "--socket", sandbox.socketPath]
        func nobody(_ arguments: [String]) throws -> ProcessResult {
            try ProcessRunner.run(setpriv, asNobody + arguments, environment: ["NO_COLOR": "1"])
        }

        #expect(try nobody(["watchlist", "add", "films", "--movie", "11"]).status == 0)
        #expect(try sandbox.movies(["watchlist", "add", "mine", "--movie", "550"]).status == 0, "root's own")
        let all = try sandbox.movies(["watchlist", "ls", "--all-users"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.contains("films (nobody: 0 queries, 1 movie)") && all.stdout.contains("mine (root: 0 queries, 1 movie)"), "\(all.stdout)")
        let json = try sandbox.movies(["watchlist", "ls", "--all-users", "--json"])
        let lists = (JSONLines.parse(json.stdout).last?["watchlists"] as? [[String: Any]]) ?? []
        #expect(lists.first { $0["name"] as? String == "films" }?["owner"] as? Int == 65534, "\(json.stdout)")

        let added = try sandbox.movies(["watchlist", "add", "films", "--movie", "603", "--owner", "nobody"])
        // Labelled as nobody's list, not "personal" (the caller's own): issue 46.
        #expect(added.status == 0 && added.stdout.contains("films (nobody's: 0 queries, 2 movies)"), "\(added.stdout) \(added.stderr)")
        #expect(try sandbox.movies(["watchlist", "rm", "films", "--movie", "11", "--owner", "65534"]).status == 0)
        #expect(try nobody(["watchlist", "ls", "films"]).stdout.contains("movie 603"), "nobody's own list changed")
        #expect(try sandbox.movies(["watchlist", "ls"]).stdout.contains("films") == false, "not root's")

        // Root's own refresh is not nobody's business; the refresh of nobody's list is.
        #expect(try sandbox.movies(["refresh", "mine", "--quiet"]).status == 0)
        #expect(try nobody(["status", "--json"]).stdout.contains(#""lastRefresh""#) == false)
        let refreshed = try sandbox.movies(["refresh", "--owner", "nobody", "--json"])
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect((JSONLines.parse(refreshed.stdout).last?["summary"] as? [String: Any])?["done"] as? Int == 1, "\(refreshed.stdout)")
        #expect(try nobody(["status", "--json"]).stdout.contains(#""lastRefresh""#))

        for refused in [["watchlist", "ls", "--all-users"], ["watchlist", "add", "mine", "--movie", "1", "--owner", "root"], ["refresh", "--owner", "0"]] {
            let result = try nobody(refused)
            #expect(result.status == 77, "\(refused): \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("only root may act on another user's watchlists"), "\(result.stderr)")
        }
        let unknown = try sandbox.movies(["watchlist", "delete", "films", "--owner", "no-such-user-31"])
        #expect(unknown.status == 64 && unknown.stderr.contains("there is no user 'no-such-user-31'"), "\(unknown.stderr)")
        #expect(try sandbox.movies(["watchlist", "delete", "films", "--owner", "nobody"]).status == 0)
        #expect(try nobody(["watchlist", "ls"]).stdout.contains("No watchlists."))
    }
}
