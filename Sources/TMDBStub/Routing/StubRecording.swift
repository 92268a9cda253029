import Foundation

/// A recorded TMDB answer served verbatim for one route (`--recording ROUTE=FILE`), so clients can be
/// tested on real data (nulls, empty strings, integer-valued floats, non-Latin titles) instead of
/// the catalogue's tidy records.
public struct StubRecording: Sendable, Equatable {
    /// The request path, such as `/3/search/movie`.
    public var path: String
    /// Query parameters that must match (others, such as `api_key` or `language`, are ignored).
    public var query: [String: String]
    /// The HTTP status sent.
    public var status: Int
    /// The body sent, byte for byte.
    public var body: [UInt8]

    /// A recording answering `route` (`/3/search/movie?query=007&page=2`) with `body`.
    public init(route: String, status: Int = 200, body: [UInt8]) {
        let parts = route.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = parts.first.map(String.init) ?? route
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = halves.first else { continue }
                let value = halves.count == 2 ? String(halves[1]) : ""
                query[String(name)] = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? value
            }
        }
        self.query = query
        self.status = status
        self.body = body
    }

    /// Parses `ROUTE=FILE` or `ROUTE=STATUS:FILE` (split at the last `=`, so FILE holds none) and
    /// reads the file.
    public static func parse(_ argument: String) throws(StubCommandLine.InvalidArguments) -> StubRecording {
        guard let separator = argument.range(of: "=", options: .backwards) else {
            throw StubCommandLine.InvalidArguments(description: "--recording needs ROUTE=FILE, such as /3/movie/550=details.json.")
        }
        let route = String(argument[..<separator.lowerBound])
        var file = String(argument[separator.upperBound...])
        var status = 200
        if let colon = file.firstIndex(of: ":"), let code = Int(file[..<colon]), (100...599).contains(code) {
            status = code
            file = String(file[file.index(after: colon)...])
        }
        guard route.hasPrefix("/"), !file.isEmpty else {
            throw StubCommandLine.InvalidArguments(description: "--recording needs ROUTE=FILE with ROUTE starting with /, got \"\(argument)\".")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw StubCommandLine.InvalidArguments(description: "--recording: cannot read \(file).")
        }
        return StubRecording(route: route, status: status, body: Array(data))
    }

    /// Whether this recording answers a request for `path` with `requestQuery`.
    func matches(path requestPath: String, query requestQuery: [String: String]) -> Bool {
        guard requestPath == path else { return false }
        return query.allSatisfy { requestQuery[$0.key] == $0.value }
    }

    /// The response: the recorded body as JSON.
    var response: HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json;charset=utf-8")], body: body)
    }
}
