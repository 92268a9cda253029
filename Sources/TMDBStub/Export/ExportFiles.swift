import Foundation
import Synchronization

/// The export files the stand-in serves at `/p/exports/movie_ids_MM_DD_YYYY.json.gz` (no key
/// needed, as on files.tmdb.org), built on first request and kept (the last day asked for), with
/// the export faults applied (`StubFaults.export`, `exportMissing`).
final class ExportFiles: Sendable {
    private let seed: UInt64
    private let size: Int
    private let served: [StubMovie]
    private let built = Mutex<(day: Int, bytes: [UInt8])?>(nil)

    /// Files of `size` made-up titles from `seed`, and the movies the API serves (`served`).
    init(seed: UInt64, size: Int, served: [StubMovie] = []) {
        self.seed = seed
        self.size = size
        self.served = served
    }

    /// The answer to `GET path`.
    func response(path: String, faults: StubFaults) -> HTTPResponse {
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        guard path.hasPrefix("/p/exports/"), let day = SyntheticExport.day(ofFileName: name) else { return Self.missing }
        let date = Self.isoDate(day: day)
        if faults.exportMissing.contains("*") || faults.exportMissing.contains(date) { return Self.missing }
        var bytes: [UInt8]
        do {
            bytes = try file(day: day)
        } catch {
            return HTTPResponse(status: 500, headers: [("Content-Type", "text/plain")], body: Array("zlib: \(error)\n".utf8))
        }
        switch faults.export {
        case "truncated":
            bytes = Array(bytes.prefix(bytes.count / 2))
        case "corrupt":
            let middle = bytes.count / 2
            for offset in middle..<min(bytes.count, middle + 64) { bytes[offset] ^= 0x5A }
        default:
            break
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: bytes)
    }

    private func file(day: Int) throws -> [UInt8] {
        if let kept = built.withLock({ $0 }), kept.day == day { return kept.bytes }
        let bytes = try SyntheticExport(seed: seed, size: size, day: day, served: served).gzipped()
        built.withLock { $0 = (day, bytes) }
        return bytes
    }

    /// S3's answer for a missing file, as files.tmdb.org sends it (an XML body).
    static let missing = HTTPResponse(
        status: 404, headers: [("Content-Type", "application/xml")],
        body: Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>NoSuchKey</Code></Error>".utf8))

    static func isoDate(day: Int) -> String {
        let date = Date(timeIntervalSince1970: Double(day) * 86_400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }
}
