import MoviesDomain

/// The policy a command asked with and where it came from, for an error whose advice depends on
/// them (nothing cached under a policy that does not ask TMDB; TMDB failing under one that does
/// not fall back to the cache). What a policy does is the fetch plan's (``FetchPolicy/asksTMDB``,
/// ``FetchPolicy/fallsBackToCache``); how it is named, ``FetchPolicy/userOption``'s.
public struct AskedPolicy: Sendable, Hashable {
    /// Where the policy came from.
    public enum Origin: Sendable, Hashable {
        /// A flag on the command line (`--offline`, `--fresh`).
        case flag
        /// movies.conf's `[Search] Policy=` (the command line named no policy).
        case configuration
    }

    public var policy: FetchPolicy
    public var origin: Origin

    public init(policy: FetchPolicy, origin: Origin) {
        self.policy = policy
        self.origin = origin
    }

    /// The policy as the user gave it: `--offline`, or `the offline policy (Policy=offline in
    /// movies.conf's [Search])`.
    var said: String {
        let name = policy.userOption?.name ?? policy.rawValue
        return origin == .flag ? "--\(name)" : "the \(name) policy (Policy=\(name) in movies.conf's [Search])"
    }

    /// How to run the command for what its policy did not do: without the flag, or with the flags
    /// of the policies that do it (`does`), instead of movies.conf's.
    func otherwise(_ does: (FetchPolicy) -> Bool) -> String {
        guard origin == .configuration else { return "without \(said)" }
        return "with " + PolicyOptions.named.filter { does($0.policy) }.map { "--" + $0.name }.joined(separator: " or ")
    }
}
