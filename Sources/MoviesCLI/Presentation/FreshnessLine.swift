import MoviesDomain

/// The one line that tells where shown data came from and how old it is, e.g.
/// "cached 2 h ago · refreshing…", "offline — showing results cached 3 days ago" or
/// "offline — 12 matches among cached movies".
enum FreshnessLine {
    /// The line for data with `freshness`.
    /// - Parameters:
    ///   - refreshing: a fresher reply is still expected for the same call.
    ///   - failure: why the fresh reply that was expected did not come (the call ended in error).
    ///   - matches: how many cached movies matched, for an answer from the local index.
    ///   - catalogue: whether the answer lists catalogue titles too: "… among cached
    ///     movies and the catalogue".
    static func describe(
        _ freshness: Freshness, refreshing: Bool = false, failure: ClientError? = nil, matches: Int? = nil, catalogue: Bool = false
    ) -> String {
        let age = RelativeAge.describe(seconds: freshness.ageSeconds)
        switch freshness.origin {
        case .network:
            return "fresh from TMDB"
        case .revalidated:
            return "cached \(age) · confirmed current by TMDB"
        case .cache:
            if refreshing { return "cached \(age) · refreshing…" }
            if let failure { return "\(outagePrefix(failure)) — showing results cached \(age)" }
            if freshness.remoteError != nil { return "offline — showing results cached \(age)" }
            return freshness.stale ? "cached \(age) · stale" : "cached \(age)"
        case .localIndex:
            let among = catalogue ? "among cached movies and the catalogue" : "among cached movies"
            let found = matches.map { "\($0) \($0 == 1 ? "match" : "matches") \(among)" } ?? "matches \(among)"
            return freshness.remoteError != nil ? "offline — \(found)" : found
        }
    }

    /// Whether `line` says the data shown is not TMDB's current answer (cached because TMDB
    /// failed, stale, or matches among cached movies): views show it as a warning.
    static func isDegraded(_ line: String) -> Bool {
        line.contains("showing results cached") || line.contains("stale") || line.contains("among cached movies")
    }

    private static func outagePrefix(_ failure: ClientError) -> String {
        switch failure {
        case .remoteRejected: "TMDB rejected the request"
        case .credentialProblem: "TMDB not asked (credential)"
        case .notCached: "offline mode"
        default: "offline"
        }
    }
}
