import Foundation
import MoviesTestSupport
import Testing
import TMDBStub

/// The stub's change feed, as TMDB's: ids changed in a window of at most 14 days, 100 a page,
/// what changed per movie, and a title change the movie's details show.
@Suite(.blocksThreads) struct StubChangeFeedTests {
    @Test func listsTheChangedIdsOfAWindowAHundredAPage() throws {
        try RunningStub.with { stub in
            let ids = (1...150).map(String.init).joined(separator: ",")
            #expect(try stub.control("POST", "/changes", body: #"{"ids":[\#(ids)],"date":"2026-11-20"}"#).status == 200)
            #expect(try stub.control("POST", "/changes", body: #"{"ids":[999],"date":"2026-11-01"}"#).status == 200)
            let first = try #require(try stub.get("/3/movie/changes?start_date=2026-11-10&end_date=2026-11-24&page=1").jsonObject)
            #expect(first["total_results"] as? Int == 150)
            #expect(first["total_pages"] as? Int == 2)
            #expect((first["results"] as? [[String: Any]])?.count == 100)
            let second = try #require(try stub.get("/3/movie/changes?start_date=2026-11-10&end_date=2026-11-24&page=2").jsonObject)
            #expect((second["results"] as? [[String: Any]])?.count == 50)
            let early = try #require(try stub.get("/3/movie/changes?start_date=2026-10-31&end_date=2026-11-02").jsonObject)
            #expect((early["results"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [999])
            #expect(stub.server.requestCount(path: "/3/movie/changes") == 3)
        }
    }

    @Test(arguments: [
        "start_date=2026-11-01&end_date=2026-11-16",  // 15 days apart
        "start_date=2026-11-20&end_date=2026-11-10",  // reversed
        "start_date=2026-02-30&end_date=2026-03-02",  // not a day
    ])
    func refusesAWindowTMDBRefuses(query: String) throws {
        try RunningStub.with { stub in
            let response = try stub.get("/3/movie/changes?\(query)")
            #expect(response.status == 422)
            #expect(response.jsonObject?["status_code"] as? Int == 20)
        }
    }

    @Test func aMoviesChangesSayWhichKeysAndATitleChangeShowsInItsDetails() throws {
        try RunningStub.with { stub in
            let id = try #require(stub.server.catalogue.movies.first?.id)
            let title = try #require(stub.server.catalogue.movies.first?.title)
            _ = try stub.control("POST", "/changes", body: #"{"ids":[\#(id)],"date":"2026-11-24","keys":["images"]}"#)
            let images = try #require(try stub.get("/3/movie/\(id)/changes?start_date=2026-11-23&end_date=2026-11-25").jsonObject)
            #expect((images["changes"] as? [[String: Any]])?.compactMap { $0["key"] as? String } == ["images"])
            #expect(try stub.get("/3/movie/\(id)").jsonObject?["title"] as? String == title)
            _ = try stub.control("POST", "/changes", body: #"{"ids":[\#(id)],"date":"2026-11-25"}"#)
            #expect(try stub.get("/3/movie/\(id)").jsonObject?["title"] as? String == title + " (revision 1)")
            let both = try #require(try stub.get("/3/movie/\(id)/changes?start_date=2026-11-23&end_date=2026-11-25").jsonObject)
            #expect(Set((both["changes"] as? [[String: Any]])?.compactMap { $0["key"] as? String } ?? []) == ["images", "title"])
            #expect(try stub.get("/3/movie/99999999/changes").status == 404)
        }
    }
}
