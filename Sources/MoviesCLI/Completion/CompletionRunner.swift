import MoviesDomain

/// `movies __complete [--] WORD…`, the hidden command the shell completions call: WORDs are the
/// command line after `movies`, the last one the word being completed (empty for a new word).
/// It prints a first line saying how the shell completes, `:words` (candidates the shell may
/// sort), `:ordered` (candidates in the order given, which the shell keeps: recent queries newest
/// first, movie ids), `:files` (file names) or `:users` (the local users' names; both left to the
/// shell), then the candidates that start with the word, one a line, each `WORD<TAB>DESCRIPTION`
/// or just `WORD`. Watchlist names, recent queries and movie ids are asked from the daemon with a
/// short timeout (with `--owner USER`, that user's lists: root's to ask); when it cannot answer
/// they are left out. Nothing is ever written to standard error.
struct CompletionRunner {
    /// The hidden command's name.
    static let commandName = "__complete"
    /// How long the daemon is waited for: a TAB must not hang.
    static let timeoutMilliseconds = 500
    /// The most recent queries offered (the daemon's maximum).
    static let recentQueryLimit = 100
    /// The most movie ids offered: a page of the newest search and a few watchlists' worth.
    static let movieIDLimit = 60

    /// The words after `__complete` (a leading `--` dropped).
    let words: [String]
    /// The daemon client on a socket path, made only when a dynamic value is needed.
    let makeClient: (_ socketPath: String) -> any MoviesClient
    /// Resolves the socket path (`--socket` from the words, else the environment's default).
    let resolver: SocketPathResolver
    /// Who `--owner USER` among the words is.
    var users = LocalUserNames.system

    /// The output lines.
    func lines() -> [String] {
        let (source, prefix) = CommandLineCompleter(words: words).source()
        let candidates: [CompletionCandidate]
        var ordered = false
        switch source {
        case .files:
            return [":files"]
        case .users:
            return [":users"]
        case .nothing:
            candidates = []
        case .words(let words):
            candidates = words
        case .commands(let withHelp):
            candidates = MoviesCommandLine.commandSpecs.map { CompletionCandidate($0.name, description: $0.abstract) }
                + (withHelp ? [CompletionCandidate("help", description: "Show the help of a command.")] : [])
        case .watchlists:
            candidates = watchlists().map { CompletionCandidate($0.name, description: "watchlist") }
        case .queries(let name):
            let list = watchlists().first { $0.name == name }
            candidates = (list?.queries ?? []).map { CompletionCandidate($0.query.query, description: "in \(name)") }
        case .recentQueries:
            ordered = true
            candidates = ((try? client().recentQueries(limit: Self.recentQueryLimit).value.queries) ?? []).map { CompletionCandidate($0, description: "recent search") }
        case .movieIDs:
            ordered = true
            candidates = movieIDs()
        }
        var seen = Set<String>()
        let matching = candidates.filter { $0.word.hasPrefix(prefix) && seen.insert($0.word).inserted }
        return [ordered ? ":ordered" : ":words"] + matching.map(\.line)
    }

    /// The movies of the newest recent search (its first page as cached: nothing asks TMDB), then
    /// those on the caller's watchlists with their cached titles, at most `movieIDLimit`.
    private func movieIDs() -> [CompletionCandidate] {
        let client = client()
        var candidates: [CompletionCandidate] = []
        if let newest = (try? client.recentQueries(limit: 1).value.queries)?.first {
            try? client.search(SearchParameters(query: newest, policy: .cacheOnly)) { reply in
                candidates = reply.value.page.movies.map { movie in
                    CompletionCandidate(String(movie.id), description: Self.describe(title: movie.title, year: movie.releaseYear, from: "\"\(newest)\""))
                }
            }
        }
        let listed = ((try? client.watchlists().value.watchlists) ?? []).flatMap { list in list.movieIDs.map { (id: $0, list: list.name) } }
        for (id, list) in listed where candidates.count < Self.movieIDLimit && !candidates.contains(where: { $0.word == String(id) }) {
            var title: String?
            var year: Int?
            try? client.movie(id: id, language: nil, policy: .cacheOnly) { reply in
                title = reply.value.movie.title
                year = reply.value.movie.releaseDate.flatMap { Int($0.prefix(4)) }
            }
            candidates.append(CompletionCandidate(String(id), description: Self.describe(title: title, year: year, from: "watchlist \(list)")))
        }
        return Array(candidates.prefix(Self.movieIDLimit))
    }

    /// "The Matrix (1999), in "matrix"": a movie id's description.
    private static func describe(title: String?, year: Int?, from source: String) -> String {
        guard let title else { return "in \(source)" }
        return title + (year.map { " (\($0))" } ?? "") + ", in \(source)"
    }

    private func client() -> any MoviesClient {
        makeClient(resolver.resolve(explicit: Self.socket(in: words)))
    }

    /// The lists a name among the words means: those of the user `--owner` names (every user's
    /// asked for, which only root is given), else the system's and the caller's own.
    private func watchlists() -> [Watchlist] {
        guard let owner = Self.value(of: OwnerOption.name, in: words) else {
            return (try? client().watchlists().value.watchlists) ?? []
        }
        guard let uid = users.uid(named: owner) else { return [] }
        return ((try? client().watchlists(allUsers: true).value.watchlists) ?? []).filter { $0.owner == .user(LocalUser(uid: uid)) }
    }

    /// The `--socket` given among `words` (the last one), if any.
    static func socket(in words: [String]) -> String? {
        value(of: "--socket", in: words)
    }

    /// The value of the option `name` given among `words` before the last (the last one given),
    /// written `NAME VALUE` or `NAME=VALUE`; `nil` when absent.
    static func value(of name: String, in words: [String]) -> String? {
        var found: String?
        for (index, word) in words.dropLast().enumerated() {
            if word == "--" { break }
            if word.hasPrefix(name + "=") { found = String(word.dropFirst(name.count + 1)) }
            if word == name, index + 1 < words.count - 1 { found = words[index + 1] }
        }
        return found
    }
}
