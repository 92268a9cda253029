/// What a word of a `movies` command line completes with (see `CommandLineCompleter`).
enum CompletionSource: Sendable, Hashable {
    /// Nothing: a number, an id, a duration, free text.
    case nothing
    /// These words (subcommands, choices), each with an optional description.
    case words([CompletionCandidate])
    /// The command names, and `help` among them at the top level.
    case commands(withHelp: Bool)
    /// The names of the watchlists (asked from the daemon).
    case watchlists
    /// The queries of the watchlist so named (asked from the daemon).
    case queries(ofWatchlist: String)
    /// The caller's recent search queries, newest first (asked from the daemon).
    case recentQueries
    /// Movie ids, each with its title: the movies of the caller's newest recent search (its
    /// cached first page), then those on the caller's watchlists (asked from the daemon, never
    /// from TMDB).
    case movieIDs
    /// File names (completed by the shell).
    case files
    /// The local users' names (completed by the shell: `--owner USER`).
    case users

    /// `names` without descriptions.
    static func words(_ names: [String]) -> CompletionSource {
        .words(names.map { CompletionCandidate($0) })
    }
}
