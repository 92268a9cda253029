import Foundation
import Gzip
import MoviesTestSupport
import Testing
import TMDBStub

/// The stand-in's daily ID export: gzip, one JSON object a line with TMDB's five members, titles
/// in several scripts, Zipf-shaped popularity, a little change from day to day, and its faults.
@Suite(.blocksThreads) struct StubExportTests {
    static let path = "/p/exports/movie_ids_03_05_2026.json.gz"

    /// The lines of a gzip body, decoded.
    static func lines(_ body: [UInt8]) throws -> [[String: Any]] {
        var text: [UInt8] = []
        let decoder = try GzipDecoder()
        try body.withUnsafeBytes { try decoder.feed($0) { text.append(contentsOf: $0) } }
        try decoder.finish()
        return try text.split(separator: 0x0A).map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        }
    }

    /// How decoding `body` fails, `nil` when it does not.
    static func failure(_ body: [UInt8]) -> GzipError.Code? {
        do {
            _ = try lines(body)
            return nil
        } catch let error as GzipError {
            return error.code
        } catch {
            return nil
        }
    }

    @Test func servesAGzipExportOfTheChosenSizeWithoutAKey() throws {
        try RunningStub.with({ $0.exportSize = 3_000; $0.movieCount = 0 }) { stub in
            let response = try RawHTTPClient.send(port: stub.port, target: Self.path, timeoutSeconds: 30)
            #expect(response.status == 200)
            #expect(Array(response.body.prefix(2)) == [0x1F, 0x8B])
            let entries = try Self.lines(response.body)
            // 2,600 titles from the start and 277 new ones (a day each since 2025-06-01), less 1.4 %
            // removed; and the few well-known movies the API serves.
            #expect((2_780...2_900).contains(entries.count))
            for entry in entries {
                #expect(Set(entry.keys) == ["adult", "id", "original_title", "popularity", "video"])
            }
            let ids = entries.compactMap { $0["id"] as? Int }
            #expect(Set(ids).count == ids.count)
            let titles = entries.compactMap { $0["original_title"] as? String }
            func share(_ test: (Unicode.Scalar) -> Bool) -> Int { titles.filter { $0.unicodeScalars.contains(where: test) }.count }
            #expect(share { (0x4E00...0x9FFF).contains($0.value) || (0x3040...0x30FF).contains($0.value) } > 20)  // CJK
            #expect(share { (0x0400...0x04FF).contains($0.value) } > 20)  // Cyrillic
            #expect(share { (0x0600...0x06FF).contains($0.value) } > 5)  // Arabic
            #expect(share { (0x00C0...0x017F).contains($0.value) } > 50)  // Latin with diacritics
            let lengths = titles.map(\.count).sorted()
            #expect((8...30).contains(lengths[lengths.count / 2]))
            let popularity = entries.compactMap { $0["popularity"] as? Double }.sorted()
            let median = popularity[popularity.count / 2]
            #expect(popularity.last ?? 0 > 50 * median)  // Zipf-shaped: a few far above the rest
            let adult = entries.filter { $0["adult"] as? Bool == true }.count
            #expect((20...120).contains(adult))
        }
    }

    @Test func theSameDayIsTheSameBytesAndALaterDayDiffersALittle() throws {
        try RunningStub.with({ $0.exportSize = 20_000; $0.movieCount = 0 }) { stub in
            let first = try RawHTTPClient.send(port: stub.port, target: Self.path, timeoutSeconds: 60).body
            let again = try RawHTTPClient.send(port: stub.port, target: Self.path, timeoutSeconds: 60).body
            #expect(first == again)
            let later = try RawHTTPClient.send(port: stub.port, target: "/p/exports/movie_ids_03_12_2026.json.gz", timeoutSeconds: 60).body
            func byID(_ body: [UInt8]) throws -> [Int: String] {
                Dictionary(uniqueKeysWithValues: try Self.lines(body).compactMap { entry in
                    (entry["id"] as? Int).map { ($0, entry["original_title"] as? String ?? "") }
                })
            }
            let before = try byID(first), after = try byID(later)
            let added = Set(after.keys).subtracting(before.keys), removed = Set(before.keys).subtracting(after.keys)
            let retitled = before.filter { after[$0.key] != nil && after[$0.key] != $0.value }
            #expect(added.count == 7)
            #expect((1...40).contains(removed.count))
            #expect((3...60).contains(retitled.count))
        }
    }

    /// As on TMDB, every movie the API serves is in the export, under its id and original title.
    @Test func theMoviesTheAPIServesAreInTheExport() throws {
        try RunningStub.with({ $0.exportSize = 1_000; $0.movieCount = 50 }) { stub in
            let entries = try Self.lines(try RawHTTPClient.send(port: stub.port, target: Self.path, timeoutSeconds: 30).body)
            let exported = Dictionary(entries.compactMap { entry in (entry["id"] as? Int).map { ($0, entry["original_title"] as? String ?? "") } }) { first, _ in first }
            #expect(exported.count == entries.count, "one line an id")
            for movie in stub.server.catalogue.movies {
                #expect(exported[movie.id] == movie.originalTitle, "\(movie.id)")
            }
        }
    }

    @Test func faultsTruncatedCorruptMissingAndSlow() throws {
        try RunningStub.with({ $0.exportSize = 2_000 }) { stub in
            let whole = try RawHTTPClient.send(port: stub.port, target: Self.path, timeoutSeconds: 30).body

            #expect(try stub.control("POST", "/faults", body: #"{"export":"truncated"}"#).status == 200)
            let cut = try RawHTTPClient.send(port: stub.port, target: Self.path, timeoutSeconds: 30)
            #expect(cut.status == 200 && cut.body.count == whole.count / 2)
            #expect(Self.failure(cut.body) == .truncated)

            #expect(try stub.control("POST", "/faults", body: #"{"export":"corrupt"}"#).status == 200)
            let corrupt = try RawHTTPClient.send(port: stub.port, target: Self.path, timeoutSeconds: 30)
            #expect(corrupt.body.count == whole.count && corrupt.body != whole)
            #expect(Self.failure(corrupt.body) == .corrupt)

            #expect(try stub.control("POST", "/faults", body: #"{"export":"","exportMissing":["2026-03-05"]}"#).status == 200)
            #expect(try RawHTTPClient.send(port: stub.port, target: Self.path, timeoutSeconds: 30).status == 404)
            #expect(try RawHTTPClient.send(port: stub.port, target: "/p/exports/movie_ids_03_04_2026.json.gz", timeoutSeconds: 30).status == 200)
            #expect(try stub.control("POST", "/faults", body: #"{"exportMissing":["*"]}"#).status == 200)
            #expect(try RawHTTPClient.send(port: stub.port, target: "/p/exports/movie_ids_03_04_2026.json.gz", timeoutSeconds: 30).status == 404)
            #expect(try RawHTTPClient.send(port: stub.port, target: "/p/exports/movie_ids_13_04_2026.json.gz", timeoutSeconds: 30).status == 404)

            #expect(try stub.control("POST", "/faults", body: #"{"exportMissing":[],"exportBytesPerSecond":\#(whole.count)}"#).status == 200)
            let clock = ContinuousClock()
            let start = clock.now
            let slow = try RawHTTPClient.send(port: stub.port, target: Self.path, timeoutSeconds: 30)
            #expect(slow.body == whole)
            #expect(clock.now - start >= .milliseconds(800))  // ten tenths of a second, less the last
        }
    }
}
