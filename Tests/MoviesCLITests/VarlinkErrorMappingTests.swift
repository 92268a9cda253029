@testable import MoviesCLI
import Testing

@Suite struct VarlinkErrorMappingTests {
    typealias Parameters = VarlinkErrorMapping.Parameters

    @Test(arguments: [
        ("io.moviesd.Movies.RemoteUnavailable", Parameters(strings: ["reason": "timeout"]), ExitCode.temporaryFailure),
        ("io.moviesd.Movies.NotCached", Parameters(strings: ["reason": "cache only"]), .temporaryFailure),
        ("io.moviesd.Movies.NotFound", Parameters(integers: ["id": 7]), .failure),
        ("io.moviesd.Movies.RemoteRejected", Parameters(strings: ["message": "Invalid API key"], integers: ["httpStatus": 401, "tmdbCode": 7]), .failure),
        ("io.moviesd.Movies.InvalidArgument", Parameters(strings: ["parameter": "page", "reason": "1...500"]), .usage),
        ("io.moviesd.Movies.Timeout", Parameters(integers: ["seconds": 30]), .failure),
        ("io.moviesd.Movies.StorageFailure", Parameters(strings: ["reason": "disk full"]), .ioError),
        ("io.moviesd.Movies.TooManyConnections", Parameters(strings: ["reason": "user 1000 already holds 256 connections"], integers: ["limit": 256]), .temporaryFailure),
        ("org.varlink.service.PermissionDenied", Parameters(), .noPermission),
        ("org.varlink.service.MethodNotFound", Parameters(strings: ["method": "x"]), .failure),
        ("com.example.Unknown", Parameters(), .failure),
    ])
    func mapsErrorNamesToExitCodes(name: String, parameters: Parameters, code: ExitCode) {
        #expect(VarlinkErrorMapping.clientError(name: name, parameters: parameters, method: "Search").exitCode == code)
    }

    @Test func aRefusedConnectionSaysWhyNotStartIt() {
        let error = VarlinkErrorMapping.clientError(
            name: "io.moviesd.Movies.TooManyConnections",
            parameters: Parameters(strings: ["reason": "user 1000 already holds 256 connections, the most one user may"], integers: ["limit": 256]),
            method: "Status")
        #expect(error.message.contains("user 1000 already holds 256 connections"))
        #expect(!error.message.contains("start it"))
        #expect(error.errorName == "io.moviesd.Movies.TooManyConnections")
    }

    @Test func keepsTheDetails() {
        #expect(VarlinkErrorMapping.clientError(name: "io.moviesd.Movies.NotFound", parameters: Parameters(integers: ["id": 7]), method: "Movie") == .notFound(id: 7))
        let rejected = VarlinkErrorMapping.clientError(
            name: "io.moviesd.Movies.RemoteRejected",
            parameters: Parameters(strings: ["message": "Invalid API key"], integers: ["httpStatus": 401, "tmdbCode": 7]),
            method: "Search"
        )
        #expect(rejected == .credentialProblem("Invalid API key"))
        let badPage = VarlinkErrorMapping.clientError(
            name: "io.moviesd.Movies.RemoteRejected",
            parameters: Parameters(strings: ["message": "Invalid page."], integers: ["httpStatus": 400, "tmdbCode": 22]),
            method: "Search"
        )
        #expect(badPage == .remoteRejected("Invalid page (HTTP 400, TMDB code 22)"))
        let unavailable = VarlinkErrorMapping.clientError(
            name: "io.moviesd.Movies.RemoteUnavailable",
            parameters: Parameters(strings: ["reason": "rate limited"], integers: ["retryAfterSeconds": 12]),
            method: "Search"
        )
        #expect(unavailable == .remoteUnavailable("rate limited", retryAfterSeconds: 12))
        #expect(unavailable.message.hasSuffix("rate limited; try again in 12 s"))
        let denied = VarlinkErrorMapping.clientError(name: "org.varlink.service.PermissionDenied", parameters: Parameters(), method: "Purge")
        #expect(denied.message.contains("purge cached entries"))
    }

    /// With no credential the daemon makes no request: no HTTP status may be shown (issue 28, item 3).
    @Test func noCredentialShowsNoInventedHTTPStatus() {
        let error = VarlinkErrorMapping.clientError(
            name: "io.moviesd.Movies.RemoteRejected",
            parameters: Parameters(
                strings: ["message": "moviesd has no TMDB credential, so it did not ask TMDB: set MOVIESD_TMDB_TOKEN (or MOVIESD_TMDB_API_KEY) for moviesd, then restart moviesd"],
                integers: ["httpStatus": 0, "tmdbCode": 7]),
            method: "Search")
        #expect(!error.message.contains("HTTP"), "\(error.message)")
        #expect(!error.message.contains("rejected"), "\(error.message)")
        #expect(error.message.hasPrefix("moviesd has no TMDB credential"))
        #expect(error.message.contains("MOVIESD_TMDB_TOKEN"))
        #expect(error.exitCode == .failure)
    }

    /// Messages say what was refused in words, never the internal method (issue 28, item 7).
    @Test(arguments: ["Search", "Movie", "Poster", "RecentQueries", "Status", "Invalidate", "Purge", "Watchlists", "AddToWatchlist",
                      "RemoveFromWatchlist", "DeleteWatchlist", "Refresh", "AccountLogin", "AccountLogout", "AccountEdit", "Account", "Pending", "Sync"])
    func messagesNeverNameTheMethod(method: String) {
        for (name, parameters) in [
            ("org.varlink.service.PermissionDenied", Parameters()),
            ("org.varlink.service.InvalidParameter", Parameters(strings: ["parameter": "name"])),
            ("org.varlink.service.MethodNotFound", Parameters()),
            ("io.moviesd.Movies.Timeout", Parameters(integers: ["seconds": 3])),
            ("io.example.Unknown", Parameters()),
        ] {
            let message = VarlinkErrorMapping.clientError(name: name, parameters: parameters, method: method).message
            #expect(!message.contains(method), "\(name): \(message)")
            #expect(!message.contains("MethodNotFound"), "\(message)")
        }
    }

    /// The daemon's reason for a 5xx already says "try again later": the client must not say it twice.
    @Test func remoteUnavailableSaysTryAgainOnce() {
        let error = VarlinkErrorMapping.clientError(
            name: "io.moviesd.Movies.RemoteUnavailable",
            parameters: Parameters(strings: ["reason": "TMDB is unavailable (HTTP 503); try again later."]),
            method: "Search"
        )
        #expect(error.message.components(separatedBy: "try again").count == 2, "\(error.message)")
        #expect(ClientError.remoteUnavailable("timed out").message.hasSuffix("; try again later"))
    }

    @Test func notFoundSaysWhatIsMissing() {
        let poster = VarlinkErrorMapping.clientError(
            name: "io.moviesd.Movies.NotFound", parameters: Parameters(strings: ["reason": "TMDB has no poster at /x.jpg"], integers: ["id": 0]), method: "Poster")
        #expect(poster.message == "TMDB has no poster at /x.jpg")
        #expect(!poster.message.contains("id 0"))
        let watchlist = VarlinkErrorMapping.clientError(
            name: "io.moviesd.Movies.NotFound",
            parameters: Parameters(strings: ["reason": "there is no watchlist named 'films'", "watchlist": "films"], integers: ["id": 0]),
            method: "DeleteWatchlist")
        #expect(watchlist == .noSuchWatchlist("films"))
        #expect(watchlist.exitCode == .failure)
        #expect(watchlist.message.contains("'films'"))
    }
}
