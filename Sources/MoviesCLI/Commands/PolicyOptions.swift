import CommandLineSupport
import MoviesDomain

/// The `--offline`, `--fresh` and `--cache-first` flags shared by `search` and `show`: the
/// client's one table of policy names (movies.conf's `[Search] Policy=` takes the same names).
enum PolicyOptions {
    /// Each policy a user may name, by the flag's name without its dashes.
    static let named: [(name: String, policy: FetchPolicy)] = [("cache-first", .cacheFirst), ("offline", .cacheOnly), ("fresh", .networkOnly)]

    /// The flags' specs.
    static let specs: [OptionSpec] = [
        .flag("--offline", help: "Answer only from the cache (never touch the network)."),
        .flag("--fresh", help: "Always ask TMDB (never answer from the cache)."),
        .flag("--cache-first", help: "Answer from a fresh cache entry; ask TMDB only when missing or stale."),
    ]

    /// The policy the flags select (`nil` = the daemon's default, cached then fresh).
    /// `extra` adds a command's own policy flags (`search --local`), so the message names them all.
    static func policy(from arguments: ParsedArguments, command: String, extra: [(String, FetchPolicy)] = []) throws(UsageError) -> FetchPolicy? {
        let all: [(String, FetchPolicy)] = named.map { ("--" + $0.name, $0.policy) } + extra
        let chosen = all.filter { arguments.has($0.0) }
        guard chosen.count <= 1 else {
            let names = all.map(\.0)
            throw UsageError("choose only one of \(names.dropLast().joined(separator: ", ")) and \(names.last ?? "")", command: command)
        }
        return chosen.first?.1
    }
}
