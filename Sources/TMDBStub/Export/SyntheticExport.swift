import Foundation
import Gzip

/// TMDB's daily movie ID export as the stand-in serves it (`/p/exports/movie_ids_MM_DD_YYYY.json.gz`):
/// `size` titles of made-up movies, one JSON object a line, gzip-compressed, the same bytes for
/// the same seed, size and day.
///
/// From one day to the next, as TMDB's does, the export changes a little: new ids appear
/// (`size / 20,000` a day, at least one, counted from 2025-06-01 for at most 400 days, so the
/// export holds about `size` titles), some are removed (5 in 100,000 a day), 1 title in 1,000
/// changes each week, and popularity (Zipf-shaped over a random rank, from about 0.6 to a few
/// hundred) moves by up to ±10 % a day. 2 % of the entries are adult, 2 % video.
struct SyntheticExport: Sendable {
    let seed: UInt64
    let size: Int
    /// Days since 1970-01-01 (UTC) of the export.
    let day: Int
    /// The movies the stand-in's API serves (`/3/movie/{id}`): in the export too, as on TMDB,
    /// under their own ids and original titles (a made-up line of the same id gives way).
    var served: [StubMovie] = []

    /// Days since 2025-06-01, at most 400.
    private var age: Int { min(400, max(0, day - 20_240)) }

    /// New ids a day.
    private var perDay: Int { max(1, size / 20_000) }

    /// The titles there from the start (the new ones come after).
    private var baseCount: Int { max(1, size - 400 * perDay) }

    /// The id of the `index`th movie (0-based): gaps, as TMDB's ids have.
    static func id(ofIndex index: Int) -> Int { (index + 1) * 4 / 3 + 1 }

    private var newMovies: Int { age * perDay }

    /// Calls `line` with each line of the export (with its `\n`): the made-up ones in id order,
    /// a served movie in place of the made-up line of its id, the other served movies after.
    func forEachLine(_ line: (String) -> Void) {
        var servedByID = Dictionary(served.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for index in 0..<(baseCount + newMovies) {
            let id = Self.id(ofIndex: index)
            if let movie = servedByID.removeValue(forKey: id) {
                line(Self.line(movie))
                continue
            }
            var presence = ExportRandom(seed, UInt64(id), 1)
            if presence.below(100_000) < age * 5 { continue }
            line(Self.line(id: id, seed: seed, day: day, size: size))
        }
        for movie in servedByID.values.sorted(by: { $0.id < $1.id }) { line(Self.line(movie)) }
    }

    /// The export's line for a movie the API serves.
    static func line(_ movie: StubMovie) -> String {
        let popularity = (movie.popularity * 1000).rounded() / 1000
        return "{\"adult\":\(movie.adult),\"id\":\(movie.id),\"original_title\":\(quoted(movie.originalTitle)),\"popularity\":\(popularity),\"video\":\(movie.video)}\n"
    }

    /// The export's line for movie `id` on `day`.
    static func line(id: Int, seed: UInt64, day: Int, size: Int) -> String {
        var base = ExportRandom(seed, UInt64(id), 2)
        var title = ExportTitles.title(&base)
        let flags = base.below(100)
        let rank = base.below(max(1, size))
        var week = ExportRandom(seed, UInt64(id), 3, UInt64(max(0, day / 7)))
        if week.below(1000) == 0 { title += " (Director's Cut)" }
        var today = ExportRandom(seed, UInt64(id), 4, UInt64(max(0, day)))
        let popularity = (0.6 + 400 / pow(Double(rank + 1), 0.75)) * (0.9 + 0.2 * today.unit())
        let rounded = (popularity * 1000).rounded() / 1000
        return "{\"adult\":\(flags < 2),\"id\":\(id),\"original_title\":\(quoted(title)),\"popularity\":\(rounded),\"video\":\(flags >= 2 && flags < 4)}\n"
    }

    /// A JSON string.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    /// The whole export, gzip-compressed (level 1). Throws when zlib cannot be loaded.
    func gzipped() throws -> [UInt8] {
        let encoder = try GzipEncoder(level: 1)
        var compressed: [UInt8] = []
        compressed.reserveCapacity(size * 25)
        var pending: [UInt8] = []
        pending.reserveCapacity(1 << 20)
        forEachLine { line in
            pending.append(contentsOf: line.utf8)
            if pending.count >= 1 << 20 {
                encoder.feed(pending, into: &compressed)
                pending.removeAll(keepingCapacity: true)
            }
        }
        encoder.feed(pending, into: &compressed)
        encoder.finish(into: &compressed)
        return compressed
    }

    /// The day of an export file name `movie_ids_MM_DD_YYYY.json.gz`, or `nil`.
    static func day(ofFileName name: String) -> Int? {
        guard name.hasPrefix("movie_ids_"), name.hasSuffix(".json.gz") else { return nil }
        let stamp = name.dropFirst("movie_ids_".count).dropLast(".json.gz".count)
        let parts = stamp.split(separator: "_")
        guard parts.count == 3, let month = Int(parts[0]), let date = Int(parts[1]), let year = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(date), parts[2].count == 4 else { return nil }
        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = date
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        guard let start = calendar.date(from: components), calendar.component(.day, from: start) == date else { return nil }
        return Int((start.timeIntervalSince1970 / 86_400).rounded(.down))
    }
}
