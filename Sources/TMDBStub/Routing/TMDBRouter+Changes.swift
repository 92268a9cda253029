import Glibc
import MoviesDomain

extension TMDBRouter {
    /// TMDB's longest change window: start and end at most 14 days apart.
    static let changeWindowDays = 14

    /// `GET /3/movie/changes?start_date&end_date&page`: 100 ids a page, most recently changed
    /// first; the last day by default; a window over 14 days (or reversed, or not dates) is
    /// TMDB's 422 with `status_code` 20.
    func changedMovies(_ query: [String: String]) -> HTTPResponse {
        guard let (start, end) = window(query) else { return Self.invalidDateRange }
        let pageText = query["page"] ?? "1"
        guard let page = Int(pageText), (1...1000).contains(page) else {
            return .tmdbError(status: 400, code: 22, message: "Invalid page: Pages start at 1 and max at 1000. They are expected to be an integer.")
        }
        let ids = changes.changedIDs(from: start, to: end)
        let pageSize = 100
        let first = (page - 1) * pageSize
        let items = first < ids.count ? Array(ids[first..<min(ids.count, first + pageSize)]) : []
        return .json(.object([
            ("results", .array(items.map { .object([("id", .int($0)), ("adult", .bool(false))]) })),
            ("page", .int(page)),
            ("total_pages", .int(max(1, (ids.count + pageSize - 1) / pageSize))),
            ("total_results", .int(ids.count)),
        ]))
    }

    /// `GET /3/movie/{id}/changes?start_date&end_date`: the keys that changed, with one item each.
    func movieChanges(idText: String, _ query: [String: String]) -> HTTPResponse {
        guard let id = Int(idText), id > 0, catalogue.movie(id: id) != nil else { return Self.notFound }
        guard let (start, end) = window(query) else { return Self.invalidDateRange }
        var keys: [(key: String, edits: [StubChangeLog.Change])] = []
        for change in changes.changes(of: id, from: start, to: end) {
            for key in change.keys {
                if let index = keys.firstIndex(where: { $0.key == key }) { keys[index].edits.append(change) } else { keys.append((key, [change])) }
            }
        }
        return .json(.object([
            ("changes", .array(keys.map { key, edits in
                .object([
                    ("key", .string(key)),
                    ("items", .array(edits.enumerated().map { number, edit in
                        .object([
                            ("id", .string("\(id)-\(key)-\(number)")), ("action", .string("updated")),
                            ("time", .string("\(edit.day) \(edit.time) UTC")),
                        ])
                    })),
                ])
            })),
        ]))
    }

    /// The window a request asks for: the last day when it names none.
    private func window(_ query: [String: String]) -> (CalendarDay, CalendarDay)? {
        let today = CalendarDay(day: Int(time(nil) / 86_400))
        guard let end = query["end_date"].map(CalendarDay.init) ?? today,
              let start = query["start_date"].map(CalendarDay.init) ?? end.adding(days: -1),
              start <= end, end.day - start.day <= Self.changeWindowDays else { return nil }
        return (start, end)
    }

    static let invalidDateRange = HTTPResponse.tmdbError(status: 422, code: 20, message: "Invalid date range: Should be a range no longer than 14 days.")
}
