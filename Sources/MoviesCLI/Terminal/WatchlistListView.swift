import MoviesDomain

/// Watchlists as text: a heading per list (whose it is, as `owners` says: "personal" for the
/// caller's own, "alice's" for another user's, or every list's owner with `--all-users`), then its
/// queries (with page depth) and movies, each movie with its title when the cache has it (`titles`).
enum WatchlistListView {
    /// The lines for `watchlists`; one line saying there are none when empty. `owners` says each
    /// list's owner for its heading (`nil`: nothing said); by default a system list says nothing and
    /// any other "personal".
    static func lines(_ watchlists: [Watchlist], titles: [Int: String] = [:], owners: ((Owner) -> String?)? = nil) -> [String] {
        guard !watchlists.isEmpty else { return ["No watchlists. Add one with 'movies watchlist add NAME QUERY…'."] }
        var lines: [String] = []
        for list in watchlists {
            lines.append(contentsOf: Self.lines(list, titles: titles, owners: owners))
        }
        return lines
    }

    /// The lines for one list.
    static func lines(_ list: Watchlist, titles: [Int: String] = [:], owners: ((Owner) -> String?)? = nil) -> [String] {
        let queries = list.queries.count == 1 ? "1 query" : "\(list.queries.count) queries"
        let movies = list.movieIDs.count == 1 ? "1 movie" : "\(list.movieIDs.count) movies"
        let label = owners.map { $0(list.owner) } ?? (list.owner == .system ? nil : "personal")
        let owner = label.map { "\(TextFitting.printable($0)): " } ?? ""
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
