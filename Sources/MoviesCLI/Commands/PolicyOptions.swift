import CommandLineSupport
import MoviesDomain

extension FetchPolicy {
    /// How a user names this policy: its flag (without the dashes, also its `[Search] Policy=`
    /// value), the flag's help, and whether only `search` takes it; `nil` for the default policy,
    /// which needs no flag. An exhaustive switch: a new policy must say here how it is named.
    var userOption: (name: String, help: String, searchOnly: Bool)? {
        switch self {
        case .cacheThenNetwork: nil
        case .cacheFirst: ("cache-first", "Answer from a fresh cache entry; ask TMDB only when missing or stale.", false)
        case .networkOnly: ("fresh", "Always ask TMDB (never answer from the cache).", false)
        case .cacheOnly: ("offline", "Answer only from the cache (never touch the network).", false)
        case .localOnly: ("local", "Search only the movies already cached (titles and overviews, any cached query), never TMDB.", true)
        }
    }
}

/// The policy flags of `search` and `show`, made from ``FetchPolicy/userOption``: the client's one
/// place for the policies' names (movies.conf's `[Search] Policy=` takes the same names).
enum PolicyOptions {
    /// Each policy a user may name for `search` and `show` alike, by its flag's name without its dashes.
    static let named: [(name: String, policy: FetchPolicy)] = options(searchOnly: false)

    /// The policies only `search` takes (`--local`).
    static let searchOnly: [(name: String, policy: FetchPolicy)] = options(searchOnly: true)

    /// The flags' specs, for `show` (`search` adds ``searchSpecs``).
    static let specs: [OptionSpec] = named.map { .flag("--" + $0.name, help: $0.policy.userOption?.help ?? "") }

    /// The flags only `search` takes.
    static let searchSpecs: [OptionSpec] = searchOnly.map { .flag("--" + $0.name, help: $0.policy.userOption?.help ?? "") }

    /// The flags as a usage line shows them: `[--cache-first | --fresh | --offline]`.
    static func usage(includingSearchOnly: Bool = false) -> String {
        "[" + (named + (includingSearchOnly ? searchOnly : [])).map { "--" + $0.name }.joined(separator: " | ") + "]"
    }

    /// The policy the flags select (`nil` = the daemon's default, cached then fresh); `search`
    /// also takes ``searchOnly``'s, so the message names them all.
    static func policy(from arguments: ParsedArguments, command: String, includingSearchOnly: Bool = false) throws(UsageError) -> FetchPolicy? {
        let all = (named + (includingSearchOnly ? searchOnly : [])).map { ("--" + $0.name, $0.policy) }
        let chosen = all.filter { arguments.has($0.0) }
        guard chosen.count <= 1 else {
            let names = all.map(\.0)
            throw UsageError("choose only one of \(names.dropLast().joined(separator: ", ")) and \(names.last ?? "")", command: command)
        }
        return chosen.first?.1
    }

    private static func options(searchOnly: Bool) -> [(name: String, policy: FetchPolicy)] {
        FetchPolicy.allCases.compactMap { policy in
            policy.userOption.flatMap { $0.searchOnly == searchOnly ? ($0.name, policy) : nil }
        }
    }
}
