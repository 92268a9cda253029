import Foundation

/// Parses `movies --json` output: one JSON object per line.
enum JSONLines {
    static func parse(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { line in
            guard let data = line.data(using: .utf8) else { return nil }
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        }
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
