import FoundationEssentials
import Glibc
@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing
import Varlink

/// Issue 46: `movies show` printed TMDB's poster path; it gives the image's address and the
/// movie's TMDB page, and `--web` opens that page.
@Suite struct ShowCommandTests {
    typealias Harness = MoviesCommandLineTests.Harness

    @Test func showGivesThePostersAddressAndTheTMDBPage() {
        let harness = Harness()
        harness.client.movieScript = .init(replies: [MovieReply(movie: Fixtures.matrix, freshness: Fixtures.network)], error: nil)
        #expect(harness.run("show", "603") == .success)
        let text = harness.output.text
        let poster = Fixtures.matrix.posterPath ?? ""
        #expect(!poster.isEmpty)
        #expect(text.contains("Poster:") && text.contains("https://image.tmdb.org/t/p/original" + poster), "\(text)")
        #expect(text.contains("TMDB page:") && text.contains("https://www.themoviedb.org/movie/603"), "\(text)")
    }

    /// `--fresh` with TMDB unreachable: the movie may well be cached, `--fresh` just does not use
    /// it; the error says TMDB could not be reached and how to get the cached copy.
    @Test func freshWithTMDBUnreachableSaysItDoesNotFallBackToTheCache() throws {
        func harness() -> Harness {
            let harness = Harness()
            harness.client.movieScript = .init(replies: [], error: .remoteUnavailable("TMDB refused the connection; not trying again for 5 s", retryAfterSeconds: 5))
            return harness
        }
        let fresh = harness()
        #expect(fresh.run("show", "603", "--fresh") == .temporaryFailure)
        #expect(fresh.errors.text == "movies: TMDB could not be reached: TMDB refused the connection; not trying again for 5 s;"
            + " --fresh does not fall back to the cached copy: run it without --fresh to get that\n")
        let json = harness()
        #expect(json.run("show", "603", "--fresh", "--json") == .temporaryFailure)
        #expect(try JSONValue.parse(Array(json.output.text.utf8))["error"]?.stringValue == "io.moviesd.Movies.RemoteUnavailable")
        let plain = harness()
        #expect(plain.run("show", "603") == .temporaryFailure)
        #expect(plain.errors.text.hasPrefix("movies: TMDB is unavailable and nothing usable is cached: "), "without --fresh the cache was looked at")
        let directory = ClientConfigurationFileTests.Directory()
        defer { directory.remove() }
        _ = try directory.write("[Search]\nPolicy=fresh\n")
        let configured = harness()
        configured.environment["XDG_CONFIG_HOME"] = directory.path
        #expect(configured.run("show", "603") == .temporaryFailure)
        #expect(configured.errors.text.hasSuffix("the fresh policy (Policy=fresh in movies.conf's [Search]) does not fall back to the cached copy: run it with --offline to get that\n"), "\(configured.errors.text)")
    }

    @Test func webOpensTheTMDBPageAndAsksTheDaemonNothing() {
        let harness = Harness()
        #expect(harness.run("show", "603", "--web") == .success)
        #expect(harness.opened.value == ["https://www.themoviedb.org/movie/603"])
        #expect(harness.client.movieCalls.isEmpty)
        #expect(harness.errors.text == "Opening https://www.themoviedb.org/movie/603 in your browser.\n")
    }

    @Test func webWithoutAnOpenerSaysSoAndExits1() {
        let harness = Harness()
        harness.openFailure = "no program to open it: install xdg-utils (xdg-open) or set BROWSER"
        #expect(harness.run("show", "603", "--web", "-q") == .failure)
        #expect(harness.errors.text == "movies: cannot open https://www.themoviedb.org/movie/603: no program to open it: install xdg-utils (xdg-open) or set BROWSER\n")
    }

    @Test func webTakesNoPolicyNorJSON() {
        let harness = Harness()
        #expect(harness.run("show", "603", "--web", "--json") == .usage)
        #expect(harness.errors.text.contains("--web opens the movie's TMDB page"))
        #expect(harness.opened.value.isEmpty)
    }

    @Test func theOpenerRunsBrowserWithTheAddressAsOneArgument() throws {
        // BROWSER's command gets the address as one word, whatever it holds.
        let file = "/tmp/movies-opener-\(getpid())"
        defer { unlink(file) }
        #expect(LinkOpener.open("https://example.org/a b;c", browser: "printf %s > \(file)") == nil)
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written == "https://example.org/a b;c")
        #expect(LinkOpener.open("x", browser: "false")?.contains("failed (exit status 1)") == true)
        #expect(LinkOpener.open("x", browser: "no-such-browser-xyz")?.contains("was not found") == true)
    }
}
