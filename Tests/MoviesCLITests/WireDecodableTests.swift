import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import MoviesTestSupport
import Testing
import Varlink

/// `init(wire:)` reads exactly what `JSONDecoder` reads from the daemon's replies, and declines
/// (leaving the reply to `JSONDecoder`) whatever it is not sure of.
@Suite struct WireDecodableTests {
    static func wire(_ text: String) throws -> JSONValue {
        try JSONValue.parse(Array(text.utf8))
    }

    static func viaJSONDecoder(_ text: String) -> SearchReply? {
        try? WireCoding.makeDecoder().decode(SearchReply.self, from: Data(text.utf8))
    }

    static func randomText(_ generator: inout SeededRandomGenerator) -> String {
        let pieces = ["Amélie", "\"quoted\"", "back\\slash", "a/b", "\n\t", "😀", "\u{2028}", " ", "Matrix", "\u{1}", ""]
        return (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
    }

    static func randomReply(_ generator: inout SeededRandomGenerator) -> SearchReply {
        func maybe<T>(_ value: T) -> T? { Bool.random(using: &generator) ? value : nil }
        let movies = (0..<Int.random(in: 0...20, using: &generator)).map { index in
            Movie(
                id: Int.random(in: 1...2_000_000, using: &generator), title: randomText(&generator),
                originalTitle: maybe(randomText(&generator)), overview: maybe(randomText(&generator)),
                releaseDate: maybe("19\(index % 100)-01-01"), posterPath: maybe("/p\(index).jpg"),
                voteAverage: maybe([8.0, 7.25, 0.1 + 0.2, 10, 0, Double(Int.random(in: 0...100, using: &generator)) / 10][index % 6]),
                originalLanguage: maybe("en"))
        }
        let fetchedAt = Date(timeIntervalSince1970: Double(Int.random(in: -2_208_988_800..<253_402_300_800, using: &generator)))
        let freshness = Freshness(
            origin: [.cache, .network, .revalidated][Int.random(in: 0...2, using: &generator)], fetchedAt: fetchedAt,
            ageSeconds: Int.random(in: 0...10_000_000, using: &generator), stale: Bool.random(using: &generator),
            remoteError: maybe(randomText(&generator)))
        return SearchReply(page: MoviesPage(page: Int.random(in: 1...500, using: &generator), totalPages: 500, totalResults: 10_000, movies: movies), freshness: freshness)
    }

    @Test func repliesInTheDaemonsShapeReadAsJSONDecoderReadsThem() throws {
        var generator = SeededRandomGenerator(seed: 11)
        for _ in 0..<300 {
            let reply = Self.randomReply(&generator)
            let text = String(decoding: try WireCoding.makeEncoder().encode(reply), as: UTF8.self)
            let read = try #require(SearchReply(wire: Self.wire(text)), "declined: \(text)")
            #expect(read == Self.viaJSONDecoder(text))
            #expect(read == reply)
        }
    }

    @Test func nullsAndAbsentOptionalsAreNilAsForJSONDecoder() throws {
        let text = #"{"freshness":{"ageSeconds":3,"fetchedAt":"2026-11-23T12:00:00Z","origin":"cache","remoteError":null,"stale":false},"# +
            #""page":{"movies":[{"id":1,"title":"T","overview":null,"voteAverage":8}],"page":1,"totalPages":1,"totalResults":1},"extra":true}"#
        let read = try #require(SearchReply(wire: Self.wire(text)))
        #expect(read == Self.viaJSONDecoder(text))
        #expect(read.page.movies.first?.voteAverage == 8)
        #expect(read.page.movies.first?.overview == nil)
    }

    @Test(arguments: [
        #""ageSeconds":3.0"#,                              // an integer written as a double
        #""origin":"carrier pigeon""#,                     // not an origin
        #""fetchedAt":"2026-11-23T12:00:00.5Z""#,          // fractional seconds
        #""fetchedAt":"2026-11-23T12:00:00+00:00""#,       // an offset instead of Z
        #""fetchedAt":"2026-02-30T12:00:00Z""#,            // no such day
        #""stale":"no""#,                                  // not a bool
        #""remoteError":5"#,                               // not a string
    ])
    func anythingNotInTheDaemonsExactShapeIsLeftToJSONDecoder(member: String) throws {
        let key = String(member.prefix { $0 != ":" })
        var members = [#""ageSeconds":3"#, #""fetchedAt":"2026-11-23T12:00:00Z""#, #""origin":"cache""#, #""stale":false"#]
        members.removeAll { $0.hasPrefix(key) }
        members.append(member)
        let text = #"{"freshness":{"# + members.joined(separator: ",") + #"},"page":{"movies":[],"page":1,"totalPages":1,"totalResults":0}}"#
        #expect(SearchReply(wire: try Self.wire(text)) == nil)
        // What the client answers is then JSONDecoder's answer, whatever it is.
        let viaClient = try? VarlinkMoviesClient.read(SearchReply.self, from: Self.wire(text), bytes: Array(text.utf8), decoder: WireCoding.makeDecoder())
        #expect(viaClient == Self.viaJSONDecoder(text))
    }

    @Test func aMovieWithoutTitleOrIdIsDeclined() throws {
        for movie in [#"{"id":1}"#, #"{"title":"T"}"#, #"{"id":"1","title":"T"}"#, #"{"id":1,"title":"T","voteAverage":"8"}"#] {
            #expect(Movie(wire: try Self.wire(movie)) == nil, "\(movie)")
        }
    }
}
