import CommandLineSupport
import FoundationEssentials
import MoviesDomain
import MoviesWire

/// `movies account login|logout|show|watchlist|favorite|rate|unrate`: the TMDB account, its lists
/// and offline edits (authorised callers).
struct AccountCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "account",
        abstract: "Sign in to your TMDB account; list and edit its watchlist, favourites and ratings, offline too.",
        usage: "account login [--wait] [--timeout D] | logout | show | watchlist add|rm ID… | favorite add|rm ID… | rate ID VALUE | unrate ID… [--wait [--timeout D]]",
        arguments: [
            ArgumentSpec(name: "login", help: "Sign in: prints the TMDB page where you approve moviesd; run it again (or use --wait) once approved."),
            ArgumentSpec(name: "logout", help: "End the session; edits not yet sent stay for the next sign-in."),
            ArgumentSpec(name: "show", help: "The account's lists (the default), edits not yet confirmed marked (pending)."),
            ArgumentSpec(name: "watchlist|favorite add|rm ID…", help: "Put movies on or off the watchlist or favourites."),
            ArgumentSpec(name: "rate ID VALUE", help: "Rate a movie 0.5 to 10 in steps of 0.5 (TMDB then takes it off the watchlist)."),
            ArgumentSpec(name: "unrate ID…", help: "Remove ratings."),
        ],
        options: [
            .flag("--system", help: "Act on the system TMDB account (the admin group's, and LoadCredential=tmdb-session), not your own."),
            .flag("--wait", help: "login: keep asking until you approved the sign-in (or it expires); an edit: wait for TMDB to take it, through retries."),
            .option("--timeout", value: "D", help: "login --wait: give up after D (default 10m; 90s, 5m…); an edit's --wait: after D (default and most 60s)."),
        ],
        discussion: """
            Edits work offline: each is recorded at once in moviesd's state database with its outbox \
            entry and sent to TMDB in order as soon as TMDB can be reached; the reply says whether it is \
            already on TMDB or pending ('movies pending', 'movies sync --wait'). An edit waits for TMDB \
            only while TMDB is answering (at most 2 s): a failed first attempt, or TMDB unreachable or \
            hanging, says pending at once; --wait waits up to --timeout for TMDB to take it. Exits 0 when the edit \
            is recorded (on TMDB or pending), 1 when TMDB refused an edit (undone), 77 when nobody is signed in or the caller may not edit, \
            75 when login --wait ran out of time.
            """
    )

    /// The action, then for a list edit add or rm.
    static func completion(after positionals: [String]) -> CompletionSource {
        switch positionals.first {
        case nil:
            return .words(spec.arguments.flatMap { argument in
                argument.name.split(separator: " ").first.map { $0.split(separator: "|").map { CompletionCandidate(String($0), description: argument.help) } } ?? []
            })
        case "watchlist"?, "favorite"?, "favourite"?:
            return positionals.count == 1 ? .words(["add", "rm"]) : .nothing
        default:
            return .nothing
        }
    }

    /// What to do.
    enum Action: Equatable {
        case login(wait: Bool, timeoutSeconds: Int)
        case logout
        case show
        /// The edits, and how long each waits for TMDB (`nil`: only while TMDB answers, at most 2 s).
        case edit([AccountEdit], waitSeconds: Double?)
    }

    let action: Action

    /// `--system`: the system's watchlists or account rather than the caller's own.
    let system: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        system = arguments.has("--system")
        var words = arguments.positionals
        let verb = words.isEmpty ? "show" : words.removeFirst()
        let wait = arguments.has("--wait")
        let isEdit = ["watchlist", "favorite", "favourite", "rate", "unrate"].contains(verb)
        var timeout = isEdit ? 60 : 600
        if let text = arguments.value("--timeout") {
            guard let seconds = DurationParser.seconds(text), seconds > 0 else {
                throw UsageError("--timeout takes a duration such as \(isEdit ? "30s or 1m (an edit waits at most 60s)" : "90s or 10m"), not '\(text)'", command: "account")
            }
            guard !isEdit || seconds <= 60 else { throw UsageError("an edit waits at most 60s; for longer use 'movies sync --wait --timeout \(text)'", command: "account") }
            timeout = seconds
        }
        if arguments.value("--timeout") != nil, !wait {
            throw UsageError("--timeout applies to --wait", command: "account")
        }
        if verb != "login", !isEdit, wait {
            throw UsageError("--wait and --timeout apply to 'account login' and to edits; for the outbox use 'movies sync --wait'", command: "account")
        }
        let editWait: Double? = wait ? Double(timeout) : nil
        switch verb {
        case "login":
            guard words.isEmpty else { throw UsageError("'account login' takes no arguments", command: "account") }
            action = .login(wait: wait, timeoutSeconds: timeout)
        case "logout":
            guard words.isEmpty else { throw UsageError("'account logout' takes no arguments", command: "account") }
            action = .logout
        case "show", "ls", "list":
            guard words.isEmpty else { throw UsageError("'account show' takes no arguments", command: "account") }
            action = .show
        case "watchlist", "favorite", "favourite":
            guard let how = words.first, ["add", "rm", "remove"].contains(how) else {
                throw UsageError("say 'account \(verb) add ID…' or 'account \(verb) rm ID…'", command: "account")
            }
            let on = how == "add"
            let ids = try Self.ids(Array(words.dropFirst()), verb: "\(verb) \(how)")
            action = .edit(try ids.map { id throws(UsageError) in
                try Self.edit(id, verb == "watchlist" ? .watchlist(on) : .favorite(on))
            }, waitSeconds: editWait)
        case "rate":
            guard words.count == 2 else { throw UsageError("say 'account rate ID VALUE', e.g. 'movies account rate 603 8.5'", command: "account") }
            let id = try Self.ids([words[0]], verb: "rate")[0]
            guard let value = Double(words[1]) else { throw UsageError("a rating is a number 0.5 to 10, not '\(words[1])'", command: "account") }
            action = .edit([try Self.edit(id, .rating(value))], waitSeconds: editWait)
        case "unrate":
            action = .edit(try Self.ids(words, verb: "unrate").map { id throws(UsageError) in try Self.edit(id, .rating(nil)) }, waitSeconds: editWait)
        default:
            throw UsageError("unknown account action '\(verb)'; say login, logout, show, watchlist, favorite, rate or unrate", command: "account")
        }
    }

    private static func ids(_ words: [String], verb: String) throws(UsageError) -> [Int] {
        guard !words.isEmpty else { throw UsageError("'account \(verb)' needs at least one movie ID", command: "account") }
        return try words.map { text throws(UsageError) in
            guard let id = Int(text), id > 0 else { throw UsageError("'\(text)' is not a TMDB movie id (a positive number; 'movies search' shows them)", command: "account") }
            return id
        }
    }

    private static func edit(_ id: Int, _ change: AccountEdit.Change) throws(UsageError) -> AccountEdit {
        do {
            return try AccountEdit(movieID: id, change: change)
        } catch {
            throw UsageError(error.message, command: "account")
        }
    }

    func run(_ commandContext: CommandContext) -> ExitCode {
        let context = system ? commandContext.actingOnSystem() : commandContext
        do {
            switch action {
            case .login(let wait, let timeout):
                return try login(context, wait: wait, timeoutSeconds: timeout)
            case .logout:
                let reply = try context.client.accountLogout()
                if context.json { context.answer(reply.parameters); return .success }
                let left = reply.value.pending
                context.print(["Signed out of TMDB." + (left > 0 ? " \(left) edit(s) not yet sent stay for your next sign-in." : "")])
            case .show:
                let reply = try context.client.account()
                context.json ? context.answer(reply.parameters) : context.print(AccountListView.lines(Self.withCachedTitles(reply.value, context), now: context.now()))
            case .edit(let edits, let waitSeconds):
                var refused = false
                for edit in edits {
                    let reply = try context.client.accountEdit(edit, waitSeconds: waitSeconds)
                    refused = refused || reply.value.entry.state == .rejected
                    if context.json { context.answer(reply.parameters); continue }
                    context.print([AccountEditOutcome.describe(edit, reply.value)])
                }
                if refused { return .failure }
            }
            return .success
        } catch {
            return context.fail(error)
        }
    }

    /// `account` with the titles TMDB's lists did not give (movies added here) from moviesd's cache
    /// (`cache_only`: nothing waits on TMDB; a movie not cached keeps no title).
    static func withCachedTitles(_ account: AccountReply, _ context: CommandContext) -> AccountReply {
        var account = account
        let missing = (account.watchlist + account.favorites + account.rated).filter { $0.title == nil }.map(\.movieID)
        let titles = WatchlistCommand.cachedTitles([Watchlist(name: "account", movieIDs: Array(Set(missing)).sorted())], context)
        func fill(_ items: inout [AccountItem]) {
            for index in items.indices where items[index].title == nil { items[index].title = titles[items[index].movieID] }
        }
        fill(&account.watchlist)
        fill(&account.favorites)
        fill(&account.rated)
        return account
    }

    /// `text` printable, without a final period, to sit inside a sentence.
    static func clause(_ text: String) -> String {
        let printable = TextFitting.printable(text)
        return printable.hasSuffix(".") ? String(printable.dropLast()) : printable
    }

    private func login(_ context: CommandContext, wait: Bool, timeoutSeconds: Int) throws(ClientError) -> ExitCode {
        let deadline = context.now().addingTimeInterval(Double(timeoutSeconds))
        var shownURL: String?
        while true {
            let reply = try context.client.accountLogin()
            let login = reply.value
            if login.signedIn {
                if context.json { context.answer(reply.parameters) } else {
                    context.print(["Signed in to TMDB as \(login.username.map(TextFitting.printable) ?? "account \(login.accountId ?? 0)")."])
                }
                return .success
            }
            guard let url = login.approvalUrl else { throw ClientError.other("moviesd sent no approval address") }
            if url != shownURL {
                shownURL = url
                if context.json {
                    context.answer(reply.parameters)
                } else {
                    let expiry = login.expiresAt.map { " (valid until \(UTCTimestamp.describe($0)))" } ?? ""
                    context.print(["Approve moviesd's access to your TMDB account here\(expiry):", "  \(url)",
                                   wait ? "Waiting for your approval…" : "Then run 'movies account login' again."])
                }
            }
            guard wait else { return .success }
            if context.now() >= deadline || login.expiresAt.map({ context.now() >= $0 }) == true {
                context.errors.write("movies: the sign-in was not approved in time; run 'movies account login' again\n")
                return .temporaryFailure
            }
            context.pause(3)
        }
    }
}
