import FoundationEssentials
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import SystemSupport
import Testing
import WireJSON

/// The wire schema and its codec: every reply survives the trip, the shapes are the interface's,
/// and replies stay readable across versions (Foundation's coders wrote and read them before).
@Suite struct WireCodingTests {
    static func randomText(_ generator: inout SeededRandomGenerator) -> String {
        let pieces = ["Amélie", "\"quoted\"", "back\\slash", "a/b", "\n\t", "😀", "\u{2028}", " ", "千と千尋", "\u{1}", ""]
        return (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
    }

    static func randomReply(_ generator: inout SeededRandomGenerator) -> SearchReply {
        func maybe<T>(_ value: T) -> T? { Bool.random(using: &generator) ? value : nil }
        let movies = (0..<Int.random(in: 0...20, using: &generator)).map { index in
            Movie(
                id: Int.random(in: 1...2_000_000, using: &generator), title: randomText(&generator),
                originalTitle: maybe(randomText(&generator)), overview: maybe(randomText(&generator)),
                releaseDate: maybe("19\(index % 100)-01-01"), posterPath: maybe("/p\(index).jpg"),
                voteAverage: maybe([8.0, 7.25, 0.1 + 0.2, 10, 0][index % 5]), originalLanguage: maybe("en"))
        }
        let fetchedAt = Date(timeIntervalSince1970: Double(Int.random(in: -2_208_988_800..<253_402_300_800, using: &generator)))
        let freshness = Freshness(
            origin: [.cache, .network, .revalidated][Int.random(in: 0...2, using: &generator)], fetchedAt: fetchedAt,
            ageSeconds: Int.random(in: 0...10_000_000, using: &generator), stale: Bool.random(using: &generator),
            remoteError: maybe(randomText(&generator)))
        return SearchReply(page: MoviesPage(page: Int.random(in: 1...500, using: &generator), totalPages: 500, totalResults: 10_000, movies: movies), freshness: freshness)
    }

    @Test func searchRepliesSurviveTheTripAndReadTheSameAcrossVersions() throws {
        var generator = SeededRandomGenerator(seed: 11)
        let foundationEncoder = JSONEncoder()
        foundationEncoder.dateEncodingStrategy = .iso8601
        let foundationDecoder = JSONDecoder()
        foundationDecoder.dateDecodingStrategy = .iso8601
        for _ in 0..<200 {
            let reply = Self.randomReply(&generator)
            let bytes = try WireCoding.bytes(reply)
            #expect(try WireCoding.decode(SearchReply.self, from: bytes) == reply)
            // An older client (Foundation's decoder) reads what this daemon writes...
            #expect(try foundationDecoder.decode(SearchReply.self, from: Data(bytes)) == reply)
            // ...and this client reads what an older daemon wrote (and stored in the cache).
            #expect(try WireCoding.decode(SearchReply.self, from: Array(foundationEncoder.encode(reply))) == reply)
        }
    }

    @Test func datesAreRFC3339StringsInUTC() throws {
        let freshness = Freshness(origin: .network, fetchedAt: Date(timeIntervalSince1970: 1_763_780_423), ageSeconds: 0, stale: false)
        let text = String(decoding: try WireCoding.bytes(freshness), as: UTF8.self)
        #expect(text == #"{"ageSeconds":0,"fetchedAt":"2025-11-22T03:00:23Z","origin":"network","stale":false}"#)
        #expect(throws: DecodingError.self) {
            try WireCoding.decode(Freshness.self, from: Array(#"{"ageSeconds":0,"fetchedAt":"yesterday","origin":"network","stale":false}"#.utf8))
        }
    }

    @Test func aWatchlistUsesMovieIdsAndPlainQueryStrings() throws {
        let list = Watchlist(name: "films", queries: [try WatchlistQuery(query: #require(MovieQuery("Heat")), pages: 2)], movieIDs: [11])
        let json = try WireCoding.bytes(list)
        #expect(String(decoding: json, as: UTF8.self) == #"{"movieIds":[11],"name":"films","queries":[{"pages":2,"query":"Heat"}]}"#)
        #expect(try WireCoding.decode(Watchlist.self, from: json) == list)
    }

    @Test func aReplysParametersAreItsMembers() {
        #expect(WireCoding.parameters(CacheMaintenanceReply(entries: 3)) == ["entries": .int(3)])
        #expect(WireCoding.parameters(CacheMaintenanceReply(entries: 3, pinned: 1)) == ["entries": .int(3), "pinned": .int(1)])
        #expect(WireCoding.parameters(EmptyReply()).isEmpty)
    }
}
