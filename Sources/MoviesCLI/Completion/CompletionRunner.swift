/// `movies __complete [--] WORD…`, the hidden command the shell completions call: WORDs are the
/// command line after `movies`, the last one the word being completed (empty for a new word).
/// It prints a first line saying how the shell completes, `:words` or `:files` (file names, left to
/// the shell), then the candidates that start with the word, one a line, each `WORD<TAB>DESCRIPTION`
/// or just `WORD`. Watchlist names and recent queries are asked from the daemon with a short
/// timeout; when it cannot answer they are left out. Nothing is ever written to standard error.
struct CompletionRunner {
    /// The hidden command's name.
    static let commandName = "__complete"
    /// How long the daemon is waited for: a TAB must not hang.
    static let timeoutMilliseconds = 500
    /// The most recent queries offered (the daemon's maximum).
    static let recentQueryLimit = 100

    /// The words after `__complete` (a leading `--` dropped).
    let words: [String]
    /// The daemon client on a socket path, made only when a dynamic value is needed.
    let makeClient: (_ socketPath: String) -> any MoviesClient
    /// Resolves the socket path (`--socket` from the words, else the environment's default).
    let resolver: SocketPathResolver

    /// The output lines.
    func lines() -> [String] {
        let (source, prefix) = CommandLineCompleter(words: words).source()
        let candidates: [CompletionCandidate]
        switch source {
        case .files:
            return [":files"]
        case .nothing:
            candidates = []
        case .words(let words):
            candidates = words
        case .commands(let withHelp):
            candidates = MoviesCommandLine.commandSpecs.map { CompletionCandidate($0.name, description: $0.abstract) }
                + (withHelp ? [CompletionCandidate("help", description: "Show the help of a command.")] : [])
        case .watchlists:
            candidates = ((try? client().watchlists().value.watchlists) ?? []).map { CompletionCandidate($0.name, description: "watchlist") }
        case .queries(let name):
            let list = (try? client().watchlists().value.watchlists)?.first { $0.name == name }
            candidates = (list?.queries ?? []).map { CompletionCandidate($0.query.query, description: "in \(name)") }
        case .recentQueries:
            candidates = ((try? client().recentQueries(limit: Self.recentQueryLimit).value.queries) ?? []).map { CompletionCandidate($0, description: "recent search") }
        }
        var seen = Set<String>()
        let matching = candidates.filter { $0.word.hasPrefix(prefix) && seen.insert($0.word).inserted }
        return [":words"] + matching.map(\.line)
    }

    private func client() -> any MoviesClient {
        makeClient(resolver.resolve(explicit: Self.socket(in: words)))
    }

    /// The `--socket` given among `words` (the last one), if any.
    static func socket(in words: [String]) -> String? {
        var found: String?
        for (index, word) in words.dropLast().enumerated() {
            if word == "--" { break }
            if word.hasPrefix("--socket=") { found = String(word.dropFirst("--socket=".count)) }
            if word == "--socket", index + 1 < words.count - 1 { found = words[index + 1] }
        }
        return found
    }
}
