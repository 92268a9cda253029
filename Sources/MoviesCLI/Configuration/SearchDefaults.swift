import MoviesDomain

/// How searches and movie details are asked for when the command line does not say: the `[Search]`
/// section of `movies.conf` (`ClientConfiguration`). A command-line flag wins over each.
struct SearchDefaults: Sendable, Hashable {
    /// `Policy=`: the fetch policy (`nil`: the daemon's default, cached then fresh).
    var policy: FetchPolicy?
    /// `Language=`: TMDB's language tag (`nil`: the daemon's `[Remote] Language=`, else TMDB's).
    var language: String?
    /// `Region=`: the upper-case ISO 3166-1 code (search and browse; `show` takes none).
    var region: String?

    /// Creates defaults; all `nil` asks as the daemon's defaults do.
    init(policy: FetchPolicy? = nil, language: String? = nil, region: String? = nil) {
        self.policy = policy
        self.language = language
        self.region = region
    }
}
