import MoviesDomain

/// Watchlists as text: a heading per list (a personal one says so, or every list says whose), then
/// its queries (with page depth) and movies, each movie with its title when the cache has it
/// (`titles`).
enum WatchlistListView {
    /// The lines for `watchlists`; one line saying there are none when empty. With `owners`, each
    /// list's heading names its owner as `owners` says it (`--all-users`: `system`, a user's name).
    static func lines(_ watchlists: [Watchlist], titles: [Int: String] = [:], owners: ((Owner) -> String)? = nil) -> [String] {
        guard !watchlists.isEmpty else { return ["No watchlists. Add one with 'movies watchlist add NAME QUERY…'."] }
        var lines: [String] = []
        for list in watchlists {
            lines.append(contentsOf: Self.lines(list, titles: titles, owners: owners))
        }
        return lines
    }

    /// The lines for one list.
    static func lines(_ list: Watchlist, titles: [Int: String] = [:], owners: ((Owner) -> String)? = nil) -> [String] {
        let queries = list.queries.count == 1 ? "1 query" : "\(list.queries.count) queries"
        let movies = list.movieIDs.count == 1 ? "1 movie" : "\(list.movieIDs.count) movies"
        let owner = owners.map { "\(TextFitting.printable($0(list.owner))): " } ?? (list.owner == .system ? "" : "personal: ")
        var lines = ["\(TextFitting.printable(list.name)) (\(owner)\(queries), \(movies))"]
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
