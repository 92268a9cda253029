import MoviesDomain

/// Why a call to the daemon failed, as the client sees it: each case maps to one exit code
/// and one line of text that says what to do.
public enum ClientError: Error, Sendable, Hashable {
    /// No daemon answered on `socketPath` (missing socket, connection refused, connection lost).
    case daemonUnreachable(socketPath: String, reason: String)
    /// The daemon (or the socket's file mode) refused this caller; `remedy` says who may, when
    /// the default advice (root, the daemon's user, its admin group) does not hold (a socket whose
    /// mode gives its group no access).
    case permissionDenied(String, remedy: String? = nil)
    /// The daemon refused what only root may do (another user's watchlists: `--owner`,
    /// `--all-users`); `action` says what, as a verb phrase.
    case rootOnly(action: String)
    /// The socket is another user's own daemon (a user service, reachable by its owner alone):
    /// `owner` is that user's name (or `uid N`).
    case anotherUsersDaemon(socketPath: String, owner: String)
    /// TMDB could not be reached and nothing usable was cached; `retryAfterSeconds` when TMDB said
    /// when to retry. `asked` when the policy asked with never falls back to the cache (`--fresh`):
    /// a cached copy may exist (set by ``asked(with:from:)``).
    case remoteUnavailable(String, retryAfterSeconds: Int? = nil, asked: AskedPolicy? = nil)
    /// The policy forbade the network (`--offline`) and nothing usable was cached; `asked` says
    /// which policy and whether from a flag or movies.conf (the command, which knows, says so
    /// with ``asked(with:from:)``).
    case notCached(String, asked: AskedPolicy? = nil)
    /// TMDB has no such movie (`id`), or no such other thing (a poster): `reason` says what.
    case notFound(id: Int?, reason: String? = nil)
    /// The daemon has no watchlist with this name.
    case noSuchWatchlist(String)
    /// The watchlist `name` has none of these `queries` and `movieIDs` (asked to remove them);
    /// `removedOthers` when the entries it did have were removed.
    case notInWatchlist(name: String, queries: [String], movieIDs: [Int], removedOthers: Bool)
    /// TMDB refused the request (a bad page, say): the reason ends with TMDB's HTTP status and code.
    case remoteRejected(String)
    /// TMDB cannot be asked because of the daemon's credential: none is configured (no request was
    /// made), or TMDB rejected it. The reason is the daemon's sentence saying which and what to do.
    case credentialProblem(String)
    /// The daemon found an argument unacceptable.
    case invalidArgument(String)
    /// The daemon's database failed (`fault`: full, locked, corrupt, unavailable); `reason` says what to do.
    case storageFailure(String, fault: String?)
    /// The daemon refused the connection: this user holds too many, or it is full.
    case tooManyConnections(String)
    /// Anything else (daemon timeout, malformed reply...).
    case other(String)
    /// Nobody is signed in to TMDB, or TMDB refused the session (exit 77).
    case notSignedIn(String)

    /// The sysexits code this error ends the program with.
    public var exitCode: ExitCode {
        switch self {
        case .daemonUnreachable: .unavailable
        case .permissionDenied, .rootOnly, .anotherUsersDaemon, .notSignedIn: .noPermission
        case .remoteUnavailable, .notCached, .tooManyConnections: .temporaryFailure
        case .invalidArgument: .usage
        case .storageFailure: .ioError
        case .notFound, .noSuchWatchlist, .notInWatchlist, .remoteRejected, .credentialProblem, .other: .failure
        }
    }

    /// Whether the error concerns only fresh data, so results already shown from the cache stand.
    public var isRemoteOnly: Bool {
        switch self {
        case .remoteUnavailable, .notCached, .remoteRejected, .credentialProblem: true
        default: false
        }
    }

    /// This error of a call made with `policy` (`nil`: the daemon's default) taken from `origin`,
    /// for the errors whose advice depends on the policy: `notCached` under one that does not ask
    /// TMDB, and `remoteUnavailable` under one that asks but does not fall back to the cache (the
    /// fetch plan says which those are). Any other error as it is.
    func asked(with policy: FetchPolicy?, from origin: AskedPolicy.Origin) -> ClientError {
        let policy = policy ?? .default
        let asked = AskedPolicy(policy: policy, origin: origin)
        switch self {
        case let .notCached(reason, _) where !policy.asksTMDB: return .notCached(reason, asked: asked)
        case let .remoteUnavailable(reason, retryAfterSeconds, _) where policy.asksTMDB && !policy.fallsBackToCache:
            return .remoteUnavailable(reason, retryAfterSeconds: retryAfterSeconds, asked: asked)
        default: return self
        }
    }

    /// Whether the daemon's `reason` already says when to try again ("again", "retry").
    static func saysWhenToRetry(_ reason: String) -> Bool {
        let text = reason.lowercased()
        return text.contains("again") || text.contains("retry")
    }

    /// One line saying what went wrong and how to fix it.
    public var message: String {
        switch self {
        case let .daemonUnreachable(socketPath, reason):
            "cannot reach moviesd at \(socketPath) (\(reason)); start it with "
                + (socketPath.hasPrefix("/run/moviesd/")
                    ? "'sudo systemctl start moviesd.socket', or run your own with 'systemctl --user enable --now moviesd.socket'"
                    : socketPath.hasSuffix("/" + SocketPathResolver.userSocketName)
                    ? "'systemctl --user enable --now moviesd.socket' (your own daemon, the user service)"
                    : "'moviesd --socket \(socketPath)' in another terminal")
                + ", or point --socket / MOVIESD_SOCKET at a running daemon"
        case let .anotherUsersDaemon(socketPath, owner):
            "permission denied: \(socketPath) is \(owner)'s own moviesd (a user service), which only \(owner) may use;"
                + " use the system daemon (--socket \(SocketPathResolver.systemPath)) or run your own with 'systemctl --user enable --now moviesd.socket'"
        case let .permissionDenied(reason, remedy):
            "permission denied: \(reason); " + (remedy ?? "run as root, as the daemon's user or as a member of its admin group")
        case let .rootOnly(action):
            "permission denied: only root may \(action); run it as root (sudo)"
        case let .remoteUnavailable(reason, retryAfterSeconds, asked):
            // The daemon's reason may say when already ("not trying again for 5 s", "retry in 3 s",
            // "retry after 30 seconds"): said once. A policy that does not fall back never looked
            // at the cache: not "nothing usable is cached", but how to get the cached copy.
            (asked == nil ? "TMDB is unavailable and nothing usable is cached: " : "TMDB could not be reached: ") + reason
                + (Self.saysWhenToRetry(reason) ? "" : retryAfterSeconds.map { "; try again in \($0) s" } ?? "; try again later")
                + (asked.map { "; \($0.said) does not fall back to the cached copy: run it \($0.otherwise { !$0.asksTMDB }) to get that" } ?? "")
        case let .notCached(reason, asked):
            // The daemon's reason often says "nothing cached" itself: said once. Nothing says the
            // network is down: the policy did not ask TMDB. Where the policy came from says how to
            // ask: without the flag, or with another policy than movies.conf's.
            (reason.lowercased().hasPrefix("nothing cached") ? "nothing is cached for this request" : "nothing is cached for this request (\(reason))")
                + (asked.map { ", and \($0.said) does not ask TMDB; run it \($0.otherwise(\.asksTMDB)) to ask TMDB" }
                    ?? ", and the policy it was asked with does not ask TMDB")
        case let .notFound(id, reason):
            if let id, id > 0 {
                "TMDB has no movie with id \(id); check the id with 'movies search'"
            } else if let reason {
                reason.hasSuffix(".") ? String(reason.dropLast()) : reason
            } else {
                "TMDB has no such resource; check the id with 'movies search'"
            }
        case let .noSuchWatchlist(name):
            "there is no watchlist named '\(name)'; 'movies watchlist ls' lists them"
        case let .notInWatchlist(name, queries, movieIDs, removedOthers):
            "watchlist '\(name)' has no " + (queries.map { "query \"\($0)\"" } + movieIDs.map { "movie \($0)" }).joined(separator: ", no ")
                + (removedOthers ? "; the other entries given were removed" : "; nothing was removed")
                + " ('movies watchlist ls \(name)' lists its entries)"
        case let .remoteRejected(reason):
            "TMDB rejected the request: \(reason); check the daemon's TMDB token (see 'movies status')"
        case let .credentialProblem(reason):
            reason + (reason.contains("movies status") ? "" : " ('movies status' shows the daemon's TMDB state)")
        case let .invalidArgument(reason):
            "invalid argument: \(reason)"
        case let .storageFailure(reason, fault):
            "moviesd's database failed" + (fault.map { " (\($0))" } ?? "") + ": \(reason)"
        case let .tooManyConnections(reason):
            "moviesd refused the connection: \(reason); close some of this user's connections to it, or try again later"
        case let .other(reason):
            reason
        case let .notSignedIn(reason):
            reason.contains("movies account login") ? reason : "\(reason); sign in with 'movies account login'"
        }
    }
}
