import CommandLineSupport
import Glibc

/// `movies browse [QUERY…] [--watchlist NAME] [--no-mouse]`: the search screen of the app moviesd
/// grew from, full-screen in the terminal (see `BrowseSession`). Its searches take the policy,
/// language and region of `movies.conf`'s `[Search]`.
struct BrowseCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "browse",
        abstract: "Search and browse movies full-screen, as you type (needs a terminal).",
        usage: "browse [QUERY…] [--watchlist NAME] [--no-mouse]",
        arguments: [ArgumentSpec(name: "QUERY…", help: "The query to start with (default: an empty search bar and your recent searches).")],
        options: [
            .option("--watchlist", value: "NAME", help: "The watchlist the w key adds movies to (default: \(defaultWatchlist))."),
            .flag("--no-mouse", help: "Leave the mouse to the terminal (selecting text) instead of clicks and the wheel in the list."),
        ],
        discussion: """
            Each keystroke searches the movies already cached (the local index) at once; after a pause of \
            250 ms moviesd is asked as 'movies search' asks it (cached, then fresh from TMDB) and the list \
            is replaced in place, the selected movie staying selected. Pages load until the list fills \
            the screen, and as you scroll to its end. Enter opens a movie's details, with its poster when \
            the terminal answers that it draws images (kitty or iTerm2 protocol). Typing goes to the \
            search bar, edited with readline's keys (arrows, Ctrl-A/E, Alt-B/F, Ctrl-W, Ctrl-U, Ctrl-K); \
            Esc switches to list keys (j/k, g/G, q, and w, a, f to add the movie to the watchlist, the \
            TMDB watchlist, the TMDB favourites, o and y to open or copy its TMDB page); / types again. \
            The mouse's wheel moves, a click selects, a double click opens. A query is saved to your \
            recent searches when you open or act on one of its movies, not while you type. ? or F1 \
            lists every key. Standard input and output must be a terminal (TERM not dumb); scripts use \
            'movies search'.
            """
    )

    /// The watchlist `w` adds to unless `--watchlist` names another.
    static let defaultWatchlist = "browse"

    /// The query completes with the caller's recent queries.
    static func completion(after positionals: [String]) -> CompletionSource {
        positionals.isEmpty ? .recentQueries : .nothing
    }

    let query: String
    let watchlistName: String
    let reportsMouse: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        if arguments.has("--json") || arguments.has("--stream") {
            throw UsageError("browse is interactive and prints no JSON; use 'movies search QUERY --json'", command: "browse")
        }
        query = arguments.positionals.joined(separator: " ").split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        let name = arguments.value("--watchlist") ?? Self.defaultWatchlist
        guard !name.isEmpty else { throw UsageError("--watchlist needs a name", command: "browse") }
        watchlistName = name
        reportsMouse = !arguments.has("--no-mouse")
    }

    func run(_ context: CommandContext) -> ExitCode {
        let terminalType = context.terminalType ?? ""
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, !terminalType.isEmpty, terminalType != "dumb" else {
            let why = terminalType == "dumb" ? "TERM is dumb" : terminalType.isEmpty && isatty(STDOUT_FILENO) == 1 && isatty(STDIN_FILENO) == 1
                ? "TERM is not set" : "standard input and output must be a terminal"
            let hint = query.isEmpty ? "'movies search QUERY'" : "'movies search \(query)'"
            context.errors.write(UsageError("browse needs a full-screen terminal (\(why)); use \(hint) instead", command: "browse").text)
            return .usage
        }
        let socketPath = context.daemonSocket?.path ?? SocketPathResolver.systemPath
        let openLink = context.openLink
        var configuration = BrowseSession.Configuration(
            query: query, watchlistName: watchlistName, usesColor: context.terminal.usesColor,
            connect: { VarlinkMoviesClient(socketPath: socketPath, timeoutMilliseconds: MoviesCommandLine.replyTimeoutMilliseconds) })
        configuration.searchDefaults = context.configuration.search
        configuration.reportsMouse = reportsMouse
        configuration.openLink = { openLink($0, true) }
        let session = BrowseSession(configuration)
        do {
            return try session.run()
        } catch {
            context.errors.write("movies: browse could not take the terminal: \(error.message)\n")
            return .failure
        }
    }
}
