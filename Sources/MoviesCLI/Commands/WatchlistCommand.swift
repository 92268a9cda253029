import CommandLineSupport
import MoviesDomain
import MoviesWire
import Varlink

/// `movies watchlist add|rm|ls|delete`: edits and lists the caller's own watchlists, the
/// system's (`--system`: edits for root and the admin group) and, for root, another user's
/// (`--owner`) or every user's (`ls --all-users`).
struct WatchlistCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "watchlist",
        abstract: "List and edit watchlists: queries and movies kept prefetched for offline use.",
        usage: "watchlist add NAME QUERY… [--pages N] [--movie ID]… | rm NAME [QUERY…] [--movie ID]… | ls [NAME] [--all-users] | delete NAME",
        arguments: [
            ArgumentSpec(name: "add|rm|ls|delete", help: "Add entries (creating the list), remove entries (an entry the list does not have is an error, exit 1), list all lists or one, or delete a list."),
            ArgumentSpec(name: "NAME", help: "The watchlist."),
            ArgumentSpec(name: "QUERY…", help: "Search queries; quote a query of several words."),
        ],
        options: [
            .flag("--system", help: "The system watchlist of NAME (shared, edited by root and the admin group), not your own; with ls, only the system lists."),
            OwnerOption.spec,
            .flag("--all-users", help: "With ls: every user's personal watchlists too, each with its owner (root only; --json gives the owner's uid)."),
            .option("--pages", value: "N", help: "Result pages to prefetch per added query (default 3)."),
            .option("--movie", value: "ID", help: "A movie id to add or remove; repeat for several."),
        ],
        discussion: "Watchlist entries are pinned (never evicted) and refreshed ahead of expiry. Everyone may keep personal watchlists (within the daemon's [Users] quotas); they are listed to, edited and refreshed by their owner (and root) only. System watchlists are listed to everyone; only root, the daemon's user and members of its admin group edit them (--system; others get exit code 77). A NAME means your own list of that name if you have one, else (for the admin group) the system list of that name. Root acts on another user's personal lists with --owner USER|UID and lists every user's with ls --all-users; others get exit code 77."
    )

    /// The actions, as completed.
    static let actions = [
        CompletionCandidate("add", description: "add queries and movies, creating the list"),
        CompletionCandidate("rm", description: "remove queries and movies"),
        CompletionCandidate("ls", description: "list the watchlists, or one"),
        CompletionCandidate("delete", description: "delete a watchlist"),
    ]

    /// The action, then a watchlist's name, then for add the recent queries, for rm the list's own.
    static func completion(after positionals: [String]) -> CompletionSource {
        guard let verb = positionals.first else { return .words(actions) }
        switch (verb, positionals.count) {
        case ("add", 1), ("rm", 1), ("remove", 1), ("ls", 1), ("list", 1), ("delete", 1): return .watchlists
        case ("add", _): return .recentQueries
        case ("rm", _), ("remove", _): return .queries(ofWatchlist: positionals[1])
        default: return .nothing
        }
    }

    /// What to do.
    enum Action {
        case add(WatchlistEdit)
        case remove(WatchlistEdit)
        case list(String?)
        case delete(String)
    }

    let action: Action

    /// `--system`: the system's watchlists or account rather than the caller's own.
    let system: Bool
    /// `--owner`: the user (a name or a uid, read when the command runs) whose lists to act on.
    let owner: String?
    /// `--all-users` (with `ls`): every user's lists, each with its owner.
    let allUsers: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        system = arguments.has("--system")
        owner = try OwnerOption.text(in: arguments, command: "watchlist")
        allUsers = arguments.has("--all-users")
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
            guard words.count <= 1, ids.isEmpty, pages == nil else { throw UsageError("'watchlist ls' takes at most one watchlist NAME", command: "watchlist") }
            if allUsers, system || owner != nil { throw UsageError("choose only one of --system, --owner and --all-users", command: "watchlist") }
            action = .list(words.first)
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
        if allUsers, !(verb == "ls" || verb == "list") {
            throw UsageError("--all-users only applies to 'watchlist ls'", command: "watchlist")
        }
    }

    func run(_ commandContext: CommandContext) -> ExitCode {
        var context = system ? commandContext.actingOnSystem() : commandContext
        var ownerUID: UInt32?
        if let owner {
            do {
                ownerUID = try OwnerOption.uid(owner, users: context.users, command: "watchlist")
            } catch {
                return context.fail(error)
            }
        }
        if let ownerUID { context = context.actingFor(owner: ownerUID) }
        let scope = Scope(system: system, owner: ownerUID, allUsers: allUsers)
        do throws(ClientError) {
            switch action {
            case .list(let name):
                var (lists, answer) = try Self.lists(scope, context)
                if let name {
                    // Every user's list of that name with --all-users; else the one the name means.
                    lists = allUsers ? lists.filter { $0.name == name } : [try Self.watchlist(named: name, in: lists, system: system)]
                    guard !lists.isEmpty else { throw ClientError.noSuchWatchlist(name) }
                    answer = .object(WireCoding.parameters(WatchlistsReply(watchlists: lists)))
                }
                context.json
                    ? context.answer(answer)
                    : context.print(WatchlistListView.lines(lists, titles: Self.cachedTitles(lists, context), owners: Self.owners(of: lists, allUsers: allUsers, context)))
            case .add(let edit):
                let named = (try? Watchlist.validatedName(edit.name)) ?? edit.name
                // Root's plain add of a name neither root nor the system has a list of makes a
                // list of root's own, which nobody else sees: say so, on each such new list.
                let rootsNew = context.callerUID == 0 && !system && ownerUID == nil
                    && (try? Self.lists(scope, context).lists.contains { $0.name == named }) == false
                let reply = try context.client.addToWatchlist(edit)
                let list = reply.value.watchlist
                if rootsNew, list.owner == .user(.root), !context.quiet {
                    context.errors.write("movies: note: '\(TextFitting.printable(named))' is a new watchlist of root's own, which only root sees and refreshes; a system watchlist, shared with every user, is made with --system: movies watchlist add --system NAME …\n")
                }
                context.json
                    ? context.answer(reply.parameters)
                    : context.print(WatchlistListView.lines(list, titles: Self.cachedTitles([list], context), owners: Self.owners(of: [list], allUsers: false, context)))
            case .remove(let edit):
                // Removing what is not there is a mistake worth saying (a typo in a query), as rm(1) does.
                let list = try Self.watchlist(named: edit.name, in: Self.lists(scope, context).lists, system: system)
                let missing = Self.missing(edit, from: list)
                var present = edit
                present.queries.removeAll { missing.queries.contains($0) }
                present.movieIDs.removeAll { missing.movieIDs.contains($0) }
                if !present.queries.isEmpty || !present.movieIDs.isEmpty {
                    let reply = try context.client.removeFromWatchlist(present)
                    if missing.isEmpty {
                        let list = reply.value.watchlist
                        context.json
                            ? context.answer(reply.parameters)
                            : context.print(WatchlistListView.lines(list, titles: Self.cachedTitles([list], context), owners: Self.owners(of: [list], allUsers: false, context)))
                    }
                }
                if !missing.isEmpty {
                    let removedOthers = !present.queries.isEmpty || !present.movieIDs.isEmpty
                    throw ClientError.notInWatchlist(name: edit.name, queries: missing.queries, movieIDs: missing.movieIDs, removedOthers: removedOthers)
                }
            case .delete(let name):
                let reply = try context.client.deleteWatchlist(name: name)
                context.json ? context.answer(reply.parameters) : context.print(["Deleted watchlist \(TextFitting.printable(name))."])
            }
            return .success
        } catch {
            return context.fail(ownerUID != nil || allUsers ? OwnerOption.explained(error) : error)
        }
    }

    /// How each list's heading names its owner: with `allUsers` every list's (`system`, a user's
    /// name, `uid N`); else a system list's not at all, the caller's own "personal", another user's
    /// (root's `--owner`) by that user's name, "alice's".
    static func owners(of lists: [Watchlist], allUsers: Bool, _ context: CommandContext) -> (Owner) -> String? {
        let others = Set(lists.compactMap(\.owner.user?.uid).filter { allUsers || $0 != context.callerUID })
        let names = others.isEmpty ? [:] : context.users.names(of: others)
        let caller = context.callerUID
        return { owner in
            guard let uid = owner.user?.uid else { return allUsers ? "system" : nil }
            let name = names[uid] ?? "uid \(uid)"
            if allUsers { return name }
            return uid == caller ? "personal" : "\(name)'s"
        }
    }

    /// Whose lists the command means: the caller's own and the system's, only the system's
    /// (`--system`), one user's (`--owner`) or every user's (`--all-users`).
    struct Scope {
        var system = false
        var owner: UInt32?
        var allUsers = false
    }

    /// The lists of `scope`, and the answer `--json` prints: the daemon's reply as it is, or one
    /// of the same shape with the lists of `scope` only. Another user's lists are asked for with
    /// `allUsers` (root's to see); the caller's own are among those every caller sees.
    static func lists(_ scope: Scope, _ context: CommandContext) throws(ClientError) -> (lists: [Watchlist], answer: JSONValue) {
        let everyones = scope.allUsers || scope.owner.map { $0 != context.callerUID } == true
        let reply = try context.client.watchlists(allUsers: everyones)
        if let owner = scope.owner {
            let lists = reply.value.watchlists.filter { $0.owner == .user(LocalUser(uid: owner)) }
            return (lists, .object(WireCoding.parameters(WatchlistsReply(watchlists: lists))))
        }
        if scope.system {
            let lists = reply.value.watchlists.filter { $0.owner == .system }
            return (lists, .object(WireCoding.parameters(WatchlistsReply(watchlists: lists))))
        }
        return (reply.value.watchlists, reply.parameters)
    }

    /// The watchlist of `lists` (those of the command's scope) that `name` means, as the daemon
    /// decides: a personal one of that name if any (the caller's own, or with `--owner` that
    /// user's), else the system's (only the system's with `system`); else `noSuchWatchlist`.
    static func watchlist(named name: String, in lists: [Watchlist], system: Bool) throws(ClientError) -> Watchlist {
        let named = lists.filter { $0.name == name }
        let personal = system ? nil : named.first { $0.owner != .system }
        guard let list = personal ?? named.first(where: { $0.owner == .system }) else {
            throw ClientError.noSuchWatchlist(name)
        }
        return list
    }

    /// The queries and movies of `edit` that `list` does not have (queries compared in their
    /// canonical form, as the daemon does: case, spacing and Unicode normalisation aside).
    static func missing(_ edit: WatchlistEdit, from list: Watchlist) -> WatchlistEdit {
        let queries = Set(list.queries.map(\.query.canonical))
        return WatchlistEdit(
            name: edit.name,
            queries: edit.queries.filter { MovieQuery($0).map { !queries.contains($0.canonical) } ?? true },
            movieIDs: edit.movieIDs.filter { !list.movieIDs.contains($0) })
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
            try? context.client.movie(id: id, language: nil, policy: .cacheOnly) { reply in titles[id] = reply.value.movie.title }
        }
        return titles
    }
}
