import Foundation
import MoviesTestSupport
import Testing

/// `movies` against a real `moviesd` on a temporary socket (issue 4).
@Suite("movies against moviesd", .serialized, .blocksThreads)
struct ClientEndToEndTests {
    @Test("no daemon: exit 69, naming the socket and how to start moviesd")
    func daemonNotRunning() throws {
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        let result = try sandbox.movies(["search", "matrix"])
        #expect(result.status == 69)
        #expect(result.stderr.contains(sandbox.socketPath))
        #expect(result.stderr.contains("moviesd"))
        #expect(result.stdout.isEmpty)
    }

    @Test("search, show, recent and status print plain text without control sequences when not a TTY")
    func plainTextCommands() throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }

        let search = try sandbox.movies(["search", "The Matrix"])
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout.contains("The Matrix"))
        #expect(!search.stdout.contains("\u{1B}["))

        let show = try sandbox.movies(["show", "603"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("The Matrix"))

        let recent = try sandbox.movies(["recent"])
        #expect(recent.status == 0)
        #expect(recent.stdout.contains("The Matrix"))

        let status = try sandbox.movies(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.lowercased().contains("online"))
    }

    @Test("--json prints one line per reply with the reply's parameters")
    func jsonLines() throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let show = try sandbox.movies(["show", "550", "--json"])
        #expect(show.status == 0, "\(show.stderr)")
        let lines = JSONLines.parse(show.stdout)
        #expect(lines.count >= 1)
        #expect((lines.last?["movie"] as? [String: Any])?["id"] as? Int == 550)
    }

    @Test("unknown movie: exit 1 with a one-line message; usage errors exit 64")
    func errorsAndUsage() throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let missing = try sandbox.movies(["show", "999999999"])
        #expect(missing.status == 1, "\(missing.stderr)")
        #expect(missing.stderr.split(separator: "\n").count == 1)
        #expect(try sandbox.movies(["search"]).status == 64)
        #expect(try sandbox.movies(["search", "x", "--page", "501"]).status == 64)
        #expect(try sandbox.movies(["frobnicate"]).status == 64)
    }

    @Test("no credential configured: a search says so and how to set one, with no invented HTTP status, first and later calls alike")
    func noCredentialIsNotAnHTTP401() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        try sandbox.startStub()
        try sandbox.startDaemon(environment: ["MOVIESD_TMDB_TOKEN": "", "MOVIESD_TMDB_API_KEY": "", "CREDENTIALS_DIRECTORY": ""])
        // Every call gets the remote's own answer: nothing is learnt from a remote never asked, so no pause starts.
        for call in 1...3 {
            let result = try sandbox.movies(["search", "matrix"])
            #expect(result.status == 1, "call \(call): \(result.stderr)")
            #expect(result.stderr.contains("no TMDB credential"), "call \(call): \(result.stderr)")
            #expect(result.stderr.contains("MOVIESD_TMDB_TOKEN"), "call \(call): \(result.stderr)")
            #expect(!result.stderr.contains("HTTP"), "call \(call): no request was made: \(result.stderr)")
            #expect(!result.stderr.contains("TMDB rejected"), "call \(call): \(result.stderr)")
        }
        #expect(try await sandbox.requestCount("/3/search/movie") == 0)
        // No credential is not a rejected one (issue 46): status, --json and the journal say so.
        let status = try sandbox.movies(["status"])
        #expect(status.stdout.contains("no credential configured"), "\(status.stdout)")
        #expect(!status.stdout.contains("auth rejected"), "\(status.stdout)")
        let json = try sandbox.movies(["status", "--json"])
        #expect(json.stdout.contains(#""credential":"missing""#) && json.stdout.contains(#""state":"unknown""#), "\(json.stdout)")
        let journal = sandbox.daemon?.stderr ?? ""
        #expect(journal.contains("no TMDB credential configured"), "\(journal)")
        #expect(!journal.contains("rejected"), "\(journal)")
    }

    @Test("poster writes the image bytes to a file")
    func poster() throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let show = try sandbox.movies(["show", "603", "--json"])
        let movie = JSONLines.parse(show.stdout).last?["movie"] as? [String: Any]
        let path = try #require(movie?["posterPath"] as? String)
        let output = sandbox.directory.appendingPathComponent("poster.png")
        let result = try sandbox.movies(["poster", path, "--width", "300", "-o", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try Data(contentsOf: output)
        #expect(bytes.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    @Test("the movies binary is one static executable: no shared library at all (no libswift*, libFoundation*, libcurl, libsqlite3)")
    func linkage() throws {
        let result = try ProcessRunner.run("/usr/bin/ldd", [BinaryLocator.path("movies")])
        // glibc's ldd says so on a static executable (status 1); a dynamic one lists its libraries.
        #expect((result.stdout + result.stderr).contains("not a dynamic executable"), "movies loads shared libraries: \(result.stdout)")
        for library in ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime", "libcurl", "libsqlite3", "libc.so"] {
            #expect(!result.stdout.contains(library), "movies links \(library) dynamically")
        }
    }
}
