import Foundation
import MoviesTestSupport
import Testing

/// `movies search --language/--region/--year` and `show --language` against the real daemon and
/// the TMDB stub (issue 28, item 9): the year reaches TMDB (the stub filters by release date),
/// region and year are part of the cache key, and `show` refuses what TMDB's details do not take.
@Suite("movies search --region/--year end to end", .serialized, .blocksThreads)
struct SearchFiltersEndToEndTests {
    /// The ids and release dates of a `--json` search answer.
    static func movies(_ output: String) throws -> [(id: Int, releaseDate: String)] {
        let line = try #require(output.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let page = try #require(object["page"] as? [String: Any])
        let movies = try #require(page["movies"] as? [[String: Any]])
        return movies.map { (($0["id"] as? Int) ?? 0, ($0["releaseDate"] as? String) ?? "") }
    }

    @Test("--year filters by release year through TMDB; region and year are cached apart; show refuses them")
    func yearAndRegion() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let all = try sandbox.movies(["search", "matrix", "--json"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try Self.movies(all.stdout).map(\.id).contains(604))
        let of2003 = try sandbox.movies(["search", "matrix", "--year", "2003", "--region", "gb", "--json"])
        #expect(of2003.status == 0, "\(of2003.stderr)")
        let found = try Self.movies(of2003.stdout)
        #expect(Set(found.map(\.id)).isSuperset(of: [604, 605]), "\(found)")
        #expect(!found.isEmpty && found.allSatisfy { $0.releaseDate.hasPrefix("2003-") }, "\(found)")

        // Cached apart: offline, the 2003 page for GB is TMDB's cached answer; the same query for
        // another region has none, so the local index answers it (year kept, region not applied).
        try await sandbox.setFaults(#"{"down": true}"#)
        let cached = try sandbox.movies(["search", "matrix", "--year", "2003", "--region", "GB", "--offline", "--json"])
        #expect(cached.status == 0, "\(cached.stderr)")
        #expect(try Self.movies(cached.stdout).map(\.id) == found.map(\.id))
        #expect(cached.stdout.contains(#""origin":"cache""#), "\(cached.stdout)")
        let otherRegion = try sandbox.movies(["search", "matrix", "--year", "2003", "--region", "US", "--offline", "--json"])
        #expect(otherRegion.status == 0, "\(otherRegion.stderr)")
        #expect(otherRegion.stdout.contains(#""origin":"local_index""#), "not the GB page: \(otherRegion.stdout)")
        #expect(try Self.movies(otherRegion.stdout).allSatisfy { $0.releaseDate.hasPrefix("2003-") }, "\(otherRegion.stdout)")

        let show = try sandbox.movies(["show", "603", "--region", "GB"])
        #expect(show.status == 64)
        #expect(show.stderr.contains("it is an option of 'movies search'"), "\(show.stderr)")
        let badYear = try sandbox.movies(["search", "matrix", "--year", "1999x"])
        #expect(badYear.status == 64)
    }
}
