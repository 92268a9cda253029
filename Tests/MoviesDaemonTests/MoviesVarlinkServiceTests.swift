import Foundation
@testable import MoviesDaemon
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing
import Varlink

/// The `io.moviesd.Movies` methods over the real repositories, an in-memory cache and a scripted TMDB.
@Suite struct MoviesVarlinkServiceTests {
    // MARK: - Search

    @Test func searchWithoutMoreAnswersWithTheNetworkPage() async throws {
        let harness = ServiceHarness()
        await harness.scriptSearch("matrix", titles: ["The Matrix", "The Matrix Reloaded"])
        let outcome = await harness.call("Search", ["query": .string("matrix")])
        let reply = try outcome.decode(SearchReply.self)
        #expect(reply.page.movies.map(\.title) == ["The Matrix", "The Matrix Reloaded"])
        #expect(reply.page.page == 1)
        #expect(reply.freshness.origin == .network)
        #expect(reply.freshness.remoteError == nil)
        #expect(outcome.intermediate.isEmpty)
        #expect(await harness.remote.fetchCount == 1)
    }

    @Test func searchAnswersFromTheCacheWithTheRemoteErrorWhenTMDBFails() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"], age: 120, fresh: false)
        await harness.scriptSearchFailure("Matrix", message: "connection refused")
        let outcome = await harness.call("Search", ["query": .string("Matrix")])
        let reply = try outcome.decode(SearchReply.self)
        #expect(reply.page.movies.map(\.title) == ["Cached Matrix"])
        #expect(reply.freshness.origin == .cache)
        #expect(reply.freshness.stale)
        #expect(reply.freshness.ageSeconds == 120)
        #expect(reply.freshness.remoteError?.contains("connection refused") == true, "\(String(describing: reply.freshness.remoteError))")
    }

    @Test func searchWithMoreStreamsTheCachedPageThenTheFreshOne() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"])
        await harness.scriptSearch("matrix", titles: ["Fresh Matrix"])
        let outcome = await harness.call("Search", ["query": .string("matrix")], more: true)
        #expect(outcome.intermediate.count == 1)
        let first = try outcome.decodeIntermediate(0, as: SearchReply.self)
        #expect(first.page.movies.map(\.title) == ["Cached Matrix"])
        #expect(first.freshness.origin == .cache)
        let final = try outcome.decode(SearchReply.self)
        #expect(final.page.movies.map(\.title) == ["Fresh Matrix"])
        #expect(final.freshness.origin == .network)
    }

    @Test func searchWithMoreEndsWithTheCachedPageAndTheErrorAfterAFailure() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"])
        await harness.scriptSearchFailure("matrix")
        let outcome = await harness.call("Search", ["query": .string("matrix")], more: true)
        #expect(outcome.intermediate.count == 1)
        #expect(try outcome.decodeIntermediate(0, as: SearchReply.self).page.movies.map(\.title) == ["Cached Matrix"])
        #expect(outcome.error == nil)
        let final = try outcome.decode(SearchReply.self)
        #expect(final.page.movies.map(\.title) == ["Cached Matrix"])
        #expect(final.freshness.origin == .cache)
        #expect(final.freshness.remoteError?.isEmpty == false)
    }

    @Test func cacheFirstOnAFreshEntryAnswersOnceFromTheCacheWithoutTheRemote() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["Cached Matrix"])
        await harness.scriptSearch("matrix", titles: ["Fresh Matrix"])
        let outcome = await harness.call("Search", ["query": .string("matrix"), "policy": .string("cache_first")], more: true)
        #expect(outcome.intermediate.isEmpty)
        let reply = try outcome.decode(SearchReply.self)
        #expect(reply.page.movies.map(\.title) == ["Cached Matrix"])
        #expect(reply.freshness.origin == .cache)
        #expect(reply.freshness.remoteError == nil)
        #expect(await harness.remote.fetchCount == 0)
    }

    @Test func cacheOnlyOnAMissIsNotCached() async throws {
        let harness = ServiceHarness()
        let outcome = await harness.call("Search", ["query": .string("matrix"), "policy": .string("cache_only")])
        #expect(outcome.error?.name == "io.moviesd.Movies.NotCached")
        #expect(outcome.error?.parameters["reason"]?.stringValue?.isEmpty == false)
        #expect(await harness.remote.fetchCount == 0)
    }

    @Test func searchRejectsBadParametersNamingThem() async throws {
        let harness = ServiceHarness()
        let cases: [(parameters: [String: JSONValue], error: String, parameter: String)] = [
            (["query": .int(7)], "org.varlink.service.InvalidParameter", "query"),
            ([:], "org.varlink.service.InvalidParameter", "query"),
            (["query": .string("a"), "page": .int(0)], "io.moviesd.Movies.InvalidArgument", "page"),
            (["query": .string("a"), "page": .int(501)], "io.moviesd.Movies.InvalidArgument", "page"),
            (["query": .string("a"), "page": .string("2")], "org.varlink.service.InvalidParameter", "page"),
            (["query": .string("a"), "colour": .string("red")], "org.varlink.service.InvalidParameter", "colour"),
            (["query": .string("   ")], "io.moviesd.Movies.InvalidArgument", "query"),
            (["query": .string("a"), "policy": .string("sometimes")], "org.varlink.service.InvalidParameter", "policy"),
            (["query": .string("a"), "maxStaleSeconds": .int(-1)], "io.moviesd.Movies.InvalidArgument", "maxStaleSeconds"),
            (["query": .string("a"), "language": .string("english")], "io.moviesd.Movies.InvalidArgument", "language"),
            (["query": .string("a"), "region": .string("gb")], "io.moviesd.Movies.InvalidArgument", "region"),
            (["query": .string("a"), "region": .string("GBR")], "io.moviesd.Movies.InvalidArgument", "region"),
            (["query": .string("a"), "region": .int(44)], "org.varlink.service.InvalidParameter", "region"),
            (["query": .string("a"), "year": .int(99)], "io.moviesd.Movies.InvalidArgument", "year"),
            (["query": .string("a"), "year": .int(2101)], "io.moviesd.Movies.InvalidArgument", "year"),
            (["query": .string("a"), "year": .string("1999")], "org.varlink.service.InvalidParameter", "year"),
        ]
        for (parameters, name, parameter) in cases {
            let outcome = await harness.call("Search", parameters)
            #expect(outcome.error?.name == name, "\(parameters)")
            #expect(outcome.error?.parameters["parameter"] == .string(parameter), "\(parameters)")
        }
        #expect(await harness.remote.fetchCount == 0)
    }

    @Test func searchAcceptsNullForOptionalParameters() async throws {
        let harness = ServiceHarness()
        await harness.scriptSearch("matrix", titles: ["The Matrix"])
        let outcome = await harness.call("Search", [
            "query": .string("matrix"), "page": .null, "language": .null, "policy": .null, "maxStaleSeconds": .null,
        ])
        #expect(try outcome.decode(SearchReply.self).page.movies.map(\.title) == ["The Matrix"])
    }

    @Test func searchPassesRegionAndYearToTMDBAndCachesThemApart() async throws {
        let harness = ServiceHarness()
        await harness.remote.script(.search(query: "matrix", page: 1, language: nil, region: "GB", year: 1999), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["The Matrix"]))))
        let filtered = await harness.call("Search", ["query": .string("matrix"), "region": .string("GB"), "year": .int(1999)])
        #expect(try filtered.decode(SearchReply.self).page.movies.map(\.title) == ["The Matrix"])
        #expect(await harness.remote.requests == [.search(query: "matrix", page: 1, language: nil, region: "GB", year: 1999)])
        // The same query for another year, or without the region, is not that page.
        for other: [String: JSONValue] in [["year": .int(2003), "region": .string("GB")], ["year": .int(1999)]] {
            let outcome = await harness.call("Search", other.merging(["query": .string("matrix"), "policy": .string("cache_only")]) { $1 })
            #expect(outcome.error?.name == "io.moviesd.Movies.NotCached", "\(other)")
        }
        let again = await harness.call("Search", ["query": .string("matrix"), "region": .string("GB"), "year": .int(1999), "policy": .string("cache_only")])
        #expect(try again.decode(SearchReply.self).page.movies.map(\.title) == ["The Matrix"])
    }

    @Test func theConfiguredLanguageIsTheDefaultOfSearchAndMovie() async throws {
        let harness = ServiceHarness(defaultLanguage: "de-DE")
        await harness.remote.script(.search(query: "matrix", page: 1, language: "de-DE"), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Matrix"]))))
        await harness.remote.script(.search(query: "matrix", page: 1, language: "fr"), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(titles: ["Matrice"]))))
        await harness.remote.script(.movie(id: 603, language: "de-DE"), .success(TMDBSampleBodies.ok(TMDBSampleBodies.movie(id: 603, title: "Matrix"))))
        #expect(try await harness.call("Search", ["query": .string("matrix")]).decode(SearchReply.self).page.movies.map(\.title) == ["Matrix"])
        #expect(try await harness.call("Search", ["query": .string("matrix"), "language": .string("fr")]).decode(SearchReply.self).page.movies.map(\.title) == ["Matrice"])
        #expect(try await harness.call("Movie", ["id": .int(603)]).decode(MovieReply.self).movie.title == "Matrix")
        #expect(await harness.remote.requests == [
            .search(query: "matrix", page: 1, language: "de-DE"), .search(query: "matrix", page: 1, language: "fr"), .movie(id: 603, language: "de-DE"),
        ])
        let bad = await harness.call("Movie", ["id": .int(603), "language": .string("german")])
        #expect(bad.error?.name == "io.moviesd.Movies.InvalidArgument")
        #expect(bad.error?.parameters["parameter"] == .string("language"))
    }

    // MARK: - Movie

    @Test func movieNotFoundNamesTheID() async throws {
        let harness = ServiceHarness()
        await harness.remote.script(.movie(id: 999, language: nil), .failure(MoviesError(code: .notFound, message: "no such movie", httpStatus: 404, tmdbCode: 34, movieID: 999)))
        let outcome = await harness.call("Movie", ["id": .int(999)])
        #expect(outcome.error?.name == "io.moviesd.Movies.NotFound")
        #expect(outcome.error?.parameters["id"] == .int(999))
    }

    @Test func movieReplyHasTheWireShape() async throws {
        let harness = ServiceHarness()
        let body = #"{"id":603,"title":"The Matrix","imdb_id":"tt0133093","release_date":"1999-03-31","genres":[{"id":28,"name":"Action"}],"vote_average":8.2}"#
        await harness.remote.script(.movie(id: 603, language: nil), .success(TMDBSampleBodies.ok(Data(body.utf8))))
        let outcome = await harness.call("Movie", ["id": .int(603)])
        let reply = try outcome.decode(MovieReply.self)
        #expect(reply.movie.imdbID == "tt0133093")
        #expect(reply.movie.genres == ["Action"])
        #expect(reply.freshness.origin == .network)
        let json = try #require(outcome.reply)
        #expect(json["movie"]?["imdbId"] == .string("tt0133093"))
        #expect(json["movie"]?["imdb_id"] == nil)
        let fetchedAt = try #require(json["freshness"]?["fetchedAt"]?.stringValue)
        #expect(fetchedAt == "2026-01-01T00:00:00Z")
    }

    @Test func movieFromTheCacheReportsAnRFC3339FetchTime() async throws {
        let harness = ServiceHarness()
        await harness.seedMovie(id: 7, title: "Seven")
        let outcome = await harness.call("Movie", ["id": .int(7), "policy": .string("cache_only")])
        let json = try #require(outcome.reply)
        #expect(json["freshness"]?["fetchedAt"] == .string("2025-12-31T23:59:30Z"))
        #expect(json["freshness"]?["origin"] == .string("cache"))
        #expect(json["freshness"]?["ageSeconds"] == .int(30))
        #expect(json["movie"]?["title"] == .string("Seven"))
    }

    @Test func movieRequiresAnIntegerID() async throws {
        let harness = ServiceHarness()
        #expect(await harness.call("Movie", ["id": .string("603")]).error == .invalidParameter("id"))
        #expect(await harness.call("Movie", [:]).error == .invalidParameter("id"))
        #expect(await harness.call("Movie", ["id": .double(1.5)]).error == .invalidParameter("id"))
    }

    // MARK: - Poster

    @Test func posterReplyCarriesTheImageAndTheNearestSize() async throws {
        let harness = ServiceHarness()
        let image = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10])
        await harness.remote.script(.configuration, .success(TMDBSampleBodies.ok(TMDBSampleBodies.configuration())))
        await harness.remote.script(
            .image(baseURL: "https://image.tmdb.org/t/p/", size: "w342", path: "/p1.jpg"),
            .success(RemoteResponse(httpStatus: 200, body: image, contentType: "image/jpeg")))
        let json = try #require(await harness.call("Poster", ["path": .string("/p1.jpg"), "width": .int(300)]).reply)
        #expect(json["mimeType"] == .string("image/jpeg"))
        #expect(json["base64"] == .string(image.base64EncodedString()))
        #expect(json["width"] == .int(342))
        #expect(json["freshness"]?["origin"] == .string("network"))
    }

    @Test func posterRejectsABadPathOrWidthNamingTheParameter() async throws {
        let harness = ServiceHarness()
        let badPath = await harness.call("Poster", ["path": .string("../etc/passwd")])
        #expect(badPath.error?.name == "io.moviesd.Movies.InvalidArgument")
        #expect(badPath.error?.parameters["parameter"] == .string("path"))
        let badWidth = await harness.call("Poster", ["path": .string("/p1.jpg"), "width": .int(-1)])
        #expect(badWidth.error?.name == "io.moviesd.Movies.InvalidArgument")
        #expect(badWidth.error?.parameters["parameter"] == .string("width"))
        #expect(await harness.remote.fetchCount == 0)
    }

    // MARK: - RecentQueries and Status

    @Test func recentQueriesListsSuccessfulSearchesNewestFirst() async throws {
        let harness = ServiceHarness()
        await harness.scriptSearch("alien", titles: ["Alien"])
        await harness.scriptSearch("blade runner", titles: ["Blade Runner"])
        await harness.scriptSearchFailure("nothing")
        _ = await harness.call("Search", ["query": .string("alien")])
        harness.clock.advance(by: 10)
        _ = await harness.call("Search", ["query": .string("blade runner")])
        _ = await harness.call("Search", ["query": .string("nothing")])
        let outcome = await harness.call("RecentQueries")
        #expect(outcome.reply?["queries"] == .array([.string("blade runner"), .string("alien")]))
        let limited = await harness.call("RecentQueries", ["limit": .int(1)])
        #expect(limited.reply?["queries"] == .array([.string("blade runner")]))
        #expect(await harness.call("RecentQueries", ["limit": .bool(true)]).error == .invalidParameter("limit"))
    }

    /// Issue 46: a search made while the user types (`remember: false`) is not a recent query;
    /// the query the user commits to is saved with `SaveRecentQuery`.
    @Test func aSearchWithRememberFalseIsNotSavedAndSaveRecentQuerySavesOne() async throws {
        let harness = ServiceHarness()
        await harness.scriptSearch("blad", titles: ["Blade"])
        await harness.scriptSearch("blade runner", titles: ["Blade Runner"])
        _ = await harness.call("Search", ["query": .string("blad"), "remember": .bool(false)])
        _ = await harness.call("Search", ["query": .string("blade runner"), "remember": .bool(false)])
        #expect(await harness.remote.fetchCount == 2, "TMDB answered both")
        #expect(await harness.call("RecentQueries").reply?["queries"] == .array([]))
        #expect(await harness.call("SaveRecentQuery", ["query": .string("blade runner")]).reply == .object([:]))
        #expect(await harness.call("RecentQueries").reply?["queries"] == .array([.string("blade runner")]))
        #expect(await harness.call("SaveRecentQuery", ["query": .string("  ")]).error?.name == "io.moviesd.Movies.InvalidArgument")
        #expect(await harness.call("SaveRecentQuery").error == .invalidParameter("query"))
        #expect(await harness.call("Search", ["query": .string("x"), "remember": .int(1)]).error == .invalidParameter("remember"))
    }

    @Test func statusReportsVersionUptimeRemoteStateAndCacheEntries() async throws {
        let harness = ServiceHarness(startedAt: Date().addingTimeInterval(-90))
        try await harness.seedSearch("matrix", titles: ["The Matrix"])
        await harness.seedMovie(id: 1, title: "One")
        await harness.scriptSearch("alien", titles: ["Alien"])
        _ = await harness.call("Search", ["query": .string("alien")])
        let json = try #require(await harness.call("Status").reply)
        #expect(json["version"] == .string("9.8.7"))
        let uptime = try #require(json["uptimeSeconds"]?.intValue)
        #expect(uptime >= 90 && uptime < 3600)
        #expect(json["remote"]?["state"] == .string("online"))
        #expect(json["remote"]?["consecutiveFailures"] == .int(0))
        #expect(json["cache"]?["entries"] == .int(3))
        #expect(json["cache"]?["byteBudget"]?.intValue == CachePolicy().byteBudget)
        #expect(await harness.call("Status", ["verbose": .bool(true)]).error == .invalidParameter("verbose"))
    }

    // MARK: - Invalidate and Purge

    @Test func invalidateCountsTheEntriesOfAQueryAMovieOrAll() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", page: 1, titles: ["A"])
        try await harness.seedSearch("matrix", page: 2, titles: ["B"])
        try await harness.seedSearch("alien", titles: ["C"])
        await harness.seedMovie(id: 5, title: "Five")
        #expect(await harness.call("Invalidate", ["query": .string("MATRIX")]).reply?["entries"] == .int(2))
        #expect(await harness.call("Invalidate", ["movieId": .int(5)]).reply?["entries"] == .int(1))
        #expect(await harness.call("Invalidate", ["movieId": .int(6)]).reply?["entries"] == .int(0))
        #expect(await harness.call("Invalidate", ["all": .bool(true)]).reply?["entries"] == .int(4))
        #expect(await harness.storage.keys.count == 4)
        let stale = await harness.call("Search", ["query": .string("alien"), "policy": .string("cache_only")])
        #expect(try stale.decode(SearchReply.self).freshness.stale)
    }

    @Test func purgeDeletesTheEntriesOfAQueryAMovieOrAll() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", page: 1, titles: ["A"])
        try await harness.seedSearch("matrix", page: 2, titles: ["B"])
        try await harness.seedSearch("alien", titles: ["C"])
        await harness.seedMovie(id: 5, title: "Five")
        await harness.seedMovie(id: 6, title: "Six")
        #expect(await harness.call("Purge", ["query": .string("matrix")]).reply?["entries"] == .int(2))
        #expect(await harness.call("Purge", ["query": .string("matrix"), "movieId": .int(5)]).reply?["entries"] == .int(1))
        #expect(await harness.storage.keys.count == 2)
        #expect(await harness.call("Purge").reply?["entries"] == .int(2))
        #expect(await harness.storage.keys.isEmpty)
    }

    /// `cache purge --all` deleted what watchlists keep for offline use without a word (issue 13).
    @Test func purgeSaysHowManyOfTheDeletedEntriesAWatchlistHadPinned() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["A"])
        try await harness.seedSearch("alien", titles: ["C"])
        await harness.seedMovie(id: 5, title: "Five")
        let pinned = await harness.storage.keys.filter { !$0.contains("alien") }
        try await harness.storage.pinForSystem(pinned)
        let reply = await harness.call("Purge", ["all": .bool(true)]).reply
        #expect(reply?["entries"] == .int(3))
        #expect(reply?["pinned"] == .int(2))
        // Invalidate keeps entries, so it has nothing to say about pins.
        #expect(await harness.call("Invalidate").reply?["pinned"] == nil)
    }

    @Test func maintenanceRejectsBadParameters() async throws {
        let harness = ServiceHarness()
        let empty = await harness.call("Purge", ["query": .string("  ")])
        #expect(empty.error?.name == "io.moviesd.Movies.InvalidArgument")
        #expect(empty.error?.parameters["parameter"] == .string("query"))
        #expect(await harness.call("Invalidate", ["all": .string("yes")]).error == .invalidParameter("all"))
        #expect(await harness.call("Invalidate", ["everything": .bool(true)]).error == .invalidParameter("everything"))
    }

    @Test func mutatingMethodsAreDeniedToOtherPeers() async throws {
        let harness = ServiceHarness()
        try await harness.seedSearch("matrix", titles: ["A"])
        for method in ["Invalidate", "Purge"] {
            #expect(await harness.call(method, ["all": .bool(true)], peer: ServiceHarness.stranger).error == .permissionDenied)
            #expect(await harness.call(method, ["all": .bool(true)], peer: nil).error == .permissionDenied)
        }
        #expect(await harness.storage.keys.count == 1)
        let root = PeerCredentials(pid: 1, uid: 0, gid: 0)
        let member = PeerCredentials(pid: 2, uid: 3_999_998, gid: ServiceHarness.authorizedGID)
        #expect(await harness.call("Invalidate", peer: root).reply?["entries"] == .int(1))
        #expect(await harness.call("Purge", peer: member).reply?["entries"] == .int(1))
        // Reads stay open to everyone.
        #expect(await harness.call("Status", peer: ServiceHarness.stranger).error == nil)
        #expect(await harness.call("RecentQueries", peer: nil).error == nil)
    }

    @Test func anUndeclaredMethodIsNotFound() async throws {
        let harness = ServiceHarness()
        #expect(await harness.call("Teleport").error == .methodNotFound("io.moviesd.Movies.Teleport"))
        // The server asks first, and answers MethodNotFound on its loop without starting a task.
        #expect(!harness.service.declares(method: "Teleport"))
        let declared = MoviesInterface.description.split(separator: "\n").compactMap { line in
            line.hasPrefix("method ") ? line.dropFirst("method ".count).prefix { $0 != "(" } : nil
        }
        #expect(declared.count > 10)
        for method in declared.map(String.init) {
            #expect(harness.service.declares(method: method), "\(method)")
        }
    }
}
