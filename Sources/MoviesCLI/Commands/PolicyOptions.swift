import CommandLineSupport
import MoviesDomain

/// The `--offline`, `--fresh` and `--cache-first` flags shared by `search` and `show`.
enum PolicyOptions {
    /// The flags' specs.
    static let specs: [OptionSpec] = [
        .flag("--offline", help: "Answer only from the cache (never touch the network)."),
        .flag("--fresh", help: "Always ask TMDB (never answer from the cache)."),
        .flag("--cache-first", help: "Answer from a fresh cache entry; ask TMDB only when missing or stale."),
    ]

    /// The policy the flags select (`nil` = the daemon's default, cached then fresh).
    static func policy(from arguments: ParsedArguments, command: String) throws(UsageError) -> FetchPolicy? {
        let chosen: [(String, FetchPolicy)] = [("--offline", .cacheOnly), ("--fresh", .networkOnly), ("--cache-first", .cacheFirst)]
            .filter { arguments.has($0.0) }
        guard chosen.count <= 1 else {
            throw UsageError("choose only one of --offline, --fresh and --cache-first", command: command)
        }
        return chosen.first?.1
    }
}
