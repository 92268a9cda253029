import Foundation

/// Parses `movies --json` output: one JSON object per line.
enum JSONLines {
    static func parse(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { line in
            guard let data = line.data(using: .utf8) else { return nil }
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        }
    }

    /// The last reply line (one with `freshness`).
    static func lastReply(_ lines: [[String: Any]]) -> [String: Any]? {
        lines.last { $0["freshness"] != nil }
    }

    /// The error object line (`{"error", "exitCode", "message", "parameters"}`) that ends the output, if any
    /// (a failure; never a stale answer, which is a reply with `freshness.remoteError`).
    static func finalError(_ lines: [[String: Any]]) -> [String: Any]? {
        lines.last.flatMap { $0["error"] is String ? $0 : nil }
    }

    /// `freshness.origin` of a reply line.
    static func origin(_ line: [String: Any]) -> String? {
        (line["freshness"] as? [String: Any])?["origin"] as? String
    }

    /// The movie ids of a search reply line, in order.
    static func movieIDs(_ line: [String: Any]) -> [Int] {
        let movies = (line["page"] as? [String: Any])?["movies"] as? [[String: Any]] ?? []
        return movies.compactMap { $0["id"] as? Int }
    }
}
