import CommandLineSupport
import MoviesDomain

/// `movies watchlist add|rm|ls|delete`: edits and lists watchlists (edits: authorised callers).
struct WatchlistCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "watchlist",
        abstract: "List and edit watchlists: queries and movies kept prefetched for offline use.",
        usage: "watchlist add NAME QUERY… [--pages N] [--movie ID]… | rm NAME [QUERY…] [--movie ID]… | ls | delete NAME",
        arguments: [
            ArgumentSpec(name: "add|rm|ls|delete", help: "Add entries (creating the list), remove entries, list, or delete a list."),
            ArgumentSpec(name: "NAME", help: "The watchlist."),
            ArgumentSpec(name: "QUERY…", help: "Search queries; quote a query of several words."),
        ],
        options: [
            .option("--pages", value: "N", help: "Result pages to prefetch per added query (default 3)."),
            .option("--movie", value: "ID", help: "A movie id to add or remove; repeat for several."),
        ],
        discussion: "Watchlist entries are pinned (never evicted) and refreshed ahead of expiry. Only root, the daemon's user and members of its admin group may edit; others get exit code 77."
    )

    /// What to do.
    enum Action {
        case add(WatchlistEdit)
        case remove(WatchlistEdit)
        case list
        case delete(String)
    }

    let action: Action

    init(_ arguments: ParsedArguments) throws(UsageError) {
        var words = arguments.positionals
        guard !words.isEmpty else { throw UsageError("say add, rm, ls or delete, e.g. 'movies watchlist add films matrix'", command: "watchlist") }
        let verb = words.removeFirst()
        let pages = try arguments.integer("--pages", in: 1...500, command: "watchlist")
        var ids: [Int] = []
        for text in arguments.values["--movie"] ?? [] {
            guard let id = Int(text), id > 0 else { throw UsageError("--movie takes a positive movie id, not '\(text)'", command: "watchlist") }
            ids.append(id)
        }
        switch verb {
        case "ls", "list":
            guard words.isEmpty, ids.isEmpty, pages == nil else { throw UsageError("'watchlist ls' takes no arguments", command: "watchlist") }
            action = .list
        case "delete":
            guard words.count == 1, ids.isEmpty, pages == nil else { throw UsageError("'watchlist delete' takes exactly one NAME", command: "watchlist") }
            action = .delete(words[0])
        case "add", "rm", "remove":
            guard !words.isEmpty else { throw UsageError("'watchlist \(verb)' needs a watchlist NAME", command: "watchlist") }
            let name = words.removeFirst()
            guard !words.isEmpty || !ids.isEmpty else {
                throw UsageError("'watchlist \(verb)' needs at least one QUERY or --movie ID", command: "watchlist")
            }
            if verb == "add" {
                action = .add(WatchlistEdit(name: name, queries: words, movieIDs: ids, pages: pages))
            } else {
                guard pages == nil else { throw UsageError("--pages only applies to 'watchlist add'", command: "watchlist") }
                action = .remove(WatchlistEdit(name: name, queries: words, movieIDs: ids))
            }
        default:
            throw UsageError("unknown watchlist action '\(verb)'; say add, rm, ls or delete", command: "watchlist")
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        do {
            switch action {
            case .list:
                let reply = try context.client.watchlists()
                context.json
                    ? context.answer(reply.parameters)
                    : context.print(WatchlistListView.lines(reply.value.watchlists, titles: Self.cachedTitles(reply.value.watchlists, context)))
            case .add(let edit):
                let reply = try context.client.addToWatchlist(edit)
                context.json
                    ? context.answer(reply.parameters)
                    : context.print(WatchlistListView.lines(reply.value.watchlist, titles: Self.cachedTitles([reply.value.watchlist], context)))
            case .remove(let edit):
                let reply = try context.client.removeFromWatchlist(edit)
                context.json
                    ? context.answer(reply.parameters)
                    : context.print(WatchlistListView.lines(reply.value.watchlist, titles: Self.cachedTitles([reply.value.watchlist], context)))
            case .delete(let name):
                let reply = try context.client.deleteWatchlist(name: name)
                context.json ? context.answer(reply.parameters) : context.print(["Deleted watchlist \(TextFitting.printable(name))."])
            }
            return .success
        } catch {
            return context.fail(error)
        }
    }

    /// At most this many titles are looked up for one listing (each is a call answered from the
    /// cache); further movies show their ids.
    static let titleLookupLimit = 1_000

    /// The titles the cache has for the lists' movies: `cache_only`, so nothing waits on TMDB and a
    /// movie not cached yet (or any failure) just has no title.
    static func cachedTitles(_ watchlists: [Watchlist], _ context: CommandContext) -> [Int: String] {
        var titles: [Int: String] = [:]
        var seen = Set<Int>()
        for id in watchlists.flatMap(\.movieIDs) where seen.count < titleLookupLimit && seen.insert(id).inserted {
            try? context.client.movie(id: id, policy: .cacheOnly) { reply in titles[id] = reply.value.movie.title }
        }
        return titles
    }
}
