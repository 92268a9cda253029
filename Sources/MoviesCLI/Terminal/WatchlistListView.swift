import MoviesDomain

/// Watchlists as text: a heading per list (a personal one says so), then its queries (with page
/// depth) and movies, each movie with its title when the cache has it (`titles`).
enum WatchlistListView {
    /// The lines for `watchlists`; one line saying there are none when empty.
    static func lines(_ watchlists: [Watchlist], titles: [Int: String] = [:]) -> [String] {
        guard !watchlists.isEmpty else { return ["No watchlists. Add one with 'movies watchlist add NAME QUERY…'."] }
        var lines: [String] = []
        for list in watchlists {
            lines.append(contentsOf: Self.lines(list, titles: titles))
        }
        return lines
    }

    /// The lines for one list.
    static func lines(_ list: Watchlist, titles: [Int: String] = [:]) -> [String] {
        let queries = list.queries.count == 1 ? "1 query" : "\(list.queries.count) queries"
        let movies = list.movieIDs.count == 1 ? "1 movie" : "\(list.movieIDs.count) movies"
        let personal = list.owner == .system ? "" : "personal: "
        var lines = ["\(TextFitting.printable(list.name)) (\(personal)\(queries), \(movies))"]
        for entry in list.queries {
            let pages = entry.pages == 1 ? "1 page" : "\(entry.pages) pages"
            lines.append("  \"\(TextFitting.printable(entry.query.query))\" (\(pages))")
        }
        for id in list.movieIDs {
            lines.append(titles[id].map { "  \(TextFitting.printable($0)) (movie \(id))" } ?? "  movie \(id) (not cached yet)")
        }
        return lines
    }
}
