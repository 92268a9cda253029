import Foundation
@testable import MoviesDaemon
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing
import Varlink

/// `WireWriter` must write exactly what `WireCoding.makeEncoder()` writes: a cached answer is
/// byte-for-byte the same whichever encoder produced it.
@Suite struct WireWriterTests {
    static func encoded<T: Encodable>(_ value: T) throws -> [UInt8] {
        Array(try WireCoding.makeEncoder().encode(value))
    }

    static func text(_ bytes: [UInt8]?) -> String {
        bytes.map { String(decoding: $0, as: UTF8.self) } ?? "nil"
    }

    @Test func everyRecordedListPageIsWrittenAsJSONEncoderWritesIt() throws {
        guard Fixtures.isAvailable else {
            if Fixtures.isRunningInCI { Issue.record("CI=true but \(Fixtures.missingReason)") } else { print("⚠️ \(Fixtures.missingReason)") }
            return
        }
        var pages = 0
        for entry in Fixtures.manifest() where entry.httpStatus == 200 {
            guard let dto = try? MoviesResponseDTO.decode(Fixtures.data(entry.file)) else { continue }
            let page = dto.toDomain()
            let expected = try Self.encoded(page)
            #expect(page.wireBytes() == expected, "\(entry.file): \(Self.text(page.wireBytes())) vs \(Self.text(expected))")
            #expect(WireValue.encode(page).serialized() == expected)
            pages += 1
        }
        #expect(pages >= 15, "only \(pages) recorded list pages decoded")
    }

    @Test func stringsAreEscapedAsJSONEncoderEscapesThem() throws {
        var everyASCII = ""
        for scalar in 0..<0x80 { everyASCII.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        let strings = ["", everyASCII, "é€😀\u{2028}\u{2029}", "a/b\\c\"d", "\u{7F}", "Amélie (2001) — \"Le Fabuleux Destin\"\n\t"]
        for text in strings {
            let movie = Movie(id: 1, title: text, originalTitle: text, overview: text, releaseDate: text, posterPath: text, originalLanguage: text)
            #expect(movie.wireBytes() == (try Self.encoded(movie)), "\(text.debugDescription)")
        }
    }

    @Test func optionalMembersAreLeftOutWhenNil() throws {
        let bare = Movie(id: 7, title: "Se7en")
        #expect(Self.text(bare.wireBytes()) == #"{"id":7,"title":"Se7en"}"#)
        #expect(bare.wireBytes() == (try Self.encoded(bare)))
        let full = Movie(id: 603, title: "The Matrix", originalTitle: "The Matrix", overview: "Neo", releaseDate: "1999-03-30",
                         posterPath: "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg", voteAverage: 8.2, originalLanguage: "en")
        #expect(full.wireBytes() == (try Self.encoded(full)))
        let empty = MoviesPage(page: 1, totalPages: 0, totalResults: 0, movies: [])
        #expect(Self.text(empty.wireBytes()) == #"{"movies":[],"page":1,"totalPages":0,"totalResults":0}"#)
        #expect(empty.wireBytes() == (try Self.encoded(empty)))
    }

    @Test func numbersAreWrittenAsJSONEncoderWritesThem() throws {
        var doubles: [Double] = [0, -0.0, 8, 8.2, 7.25, 10, 100, 0.1 + 0.2, 1e-7, 1e15, 1e16, 1e21, .leastNonzeroMagnitude, -3.5,
                                 .greatestFiniteMagnitude, .leastNormalMagnitude, 9.999999999999998, 123_456_789_012_345_680]
        var generator = SeededRandomGenerator(seed: 42)
        for _ in 0..<500 {
            doubles.append(Double(Int.random(in: 0...100, using: &generator)) / 10)  // TMDB's vote averages
            doubles.append(Double.random(in: -1e6...1e6, using: &generator))
            let bits = Double(bitPattern: generator.next())
            if bits.isFinite { doubles.append(bits) }
        }
        let ints = [0, 1, -1, 9, 10, 99, 100, 12345, Int.max, Int.min, Int(Int32.max) + 1]
        for (index, double) in doubles.enumerated() {
            let movie = Movie(id: ints[index % ints.count], title: "t", voteAverage: double)
            #expect(movie.wireBytes() == (try Self.encoded(movie)), "\(double) / \(ints[index % ints.count])")
        }
        let page = MoviesPage(page: Int.max, totalPages: Int.min, totalResults: -1, movies: [])
        #expect(page.wireBytes() == (try Self.encoded(page)))
    }

    @Test func freshnessDatesAreWrittenAsISO8601WithTheSecondsRoundedDown() throws {
        var intervals: [Double] = [0, 0.5, -0.5, -1.5, 1e9 + 0.9999, 951_782_400 /* 2000-02-29 */, 1_709_164_800 /* 2024-02-29 */,
                                   -2_203_891_200 /* 1900-03-01 */, -2_208_988_800 /* 1900-01-01 */, 4_102_444_800 /* 2100-01-01 */,
                                   253_402_300_799.75 /* 9999-12-31T23:59:59 */, 1_795_000_000]
        var generator = SeededRandomGenerator(seed: 7)
        for _ in 0..<1000 { intervals.append(Double.random(in: -2_208_988_800..<253_402_300_800, using: &generator)) }
        let origins: [Freshness.Origin] = [.cache, .network, .revalidated]
        for (index, interval) in intervals.enumerated() {
            let freshness = Freshness(
                origin: origins[index % 3], fetchedAt: Date(timeIntervalSince1970: interval), ageSeconds: index,
                stale: index % 2 == 0, remoteError: index % 4 == 0 ? "TMDB could not be reached: \"timeout\"" : nil)
            #expect(freshness.wireBytes() == (try Self.encoded(freshness)), "\(interval)")
        }
    }

    @Test func whatOnlyJSONEncoderWritesFaithfullyFallsBackToIt() throws {
        // JSONEncoder refuses a non-finite double: the value encodes as null, as before.
        let infinite = Movie(id: 1, title: "t", voteAverage: .infinity)
        #expect(infinite.wireBytes() == nil)
        #expect(WireValue.encode(infinite) == .null)
        #expect(Movie(id: 1, title: "t", voteAverage: .nan).wireBytes() == nil)
        // Before 1900 (and before 1583 Foundation's calendar is Julian): JSONEncoder's bytes.
        for interval in [-2_208_988_801.0, -62_135_596_800, 253_402_300_800] {
            let old = Freshness(origin: .cache, fetchedAt: Date(timeIntervalSince1970: interval), ageSeconds: 0, stale: true)
            #expect(old.wireBytes() == nil)
            #expect(WireValue.encode(old).serialized() == (try Self.encoded(old)))
        }
    }
}
