import FoundationEssentials
import MoviesDomain

/// `GET /3/movie/{id}/changes`: which keys of a movie changed (`title`, `overview`, `images`...)
/// and when. The items' values are not read: what changed, and when, decides what is fetched again.
public struct MovieChangesDTO: Decodable, Sendable {
    /// One changed key.
    public struct Change: Decodable, Sendable {
        /// One edit of the key.
        public struct Item: Decodable, Sendable {
            /// `YYYY-MM-DD hh:mm:ss UTC`.
            public var time: String?
        }

        public var key: String
        public var items: [Item]?
    }

    public var changes: [Change]

    /// When the latest edit was made, when every edit says when (`nil` otherwise).
    public var latestEdit: Date? {
        var latest: Date?
        for change in changes {
            for item in change.items ?? [] {
                guard let date = item.time.flatMap(Self.date) else { return nil }
                latest = max(latest ?? date, date)
            }
        }
        return latest
    }

    /// Decodes a response body.
    public static func decode(_ body: Data) throws -> MovieChangesDTO {
        try JSONDecoder().decode(MovieChangesDTO.self, from: body)
    }

    /// Parses TMDB's `2026-11-25 10:13:00 UTC`.
    static func date(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count >= 2, let day = CalendarDay(String(parts[0]))?.start else { return nil }
        let clock = parts[1].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (0..<24).contains(clock[0]), (0..<60).contains(clock[1]), (0..<61).contains(clock[2]) else { return nil }
        return day.addingTimeInterval(Double(clock[0] * 3600 + clock[1] * 60 + clock[2]))
    }
}
