import Glibc
import Synchronization

/// The stub's one TMDB user account (id 22011, `stub-user`) and its login: request tokens, sessions,
/// the watchlist, favourites and ratings behind `/3/authentication/…`, `/3/account/…` and
/// `/3/movie/{id}/rating`, and the writes the API applied (the control port's `GET /account`).
/// Every change happens under one lock, so a write checks and applies atomically.
public final class StubAccount: Sendable {
    /// The account's id.
    public static let id = 22_011
    /// The account's user name.
    public static let username = "stub-user"
    /// How long a request token stays valid, in seconds (TMDB: 60 minutes).
    public static let tokenLifetimeSeconds = 3_600
    /// How many of the latest writes the log keeps (the count keeps counting).
    public static let writeLogLimit = 1_000

    /// What `POST /3/authentication/session/new` does with a request token.
    public enum SessionOutcome: Sendable, Equatable {
        /// A new session; the token is used up.
        case created(sessionID: String)
        /// The token was never issued, is used up or expired (TMDB code 33).
        case invalidToken
        /// The token is valid but the user has not approved it (TMDB code 17).
        case denied
    }

    private let state = Mutex(AccountState())
    private let autoApprove: Bool
    private let now: @Sendable () -> Int

    /// An account with no tokens, sessions or lists. With `autoApprove` every new request token is
    /// approved at once; `now` is the wall clock in seconds since 1970 (for token expiry).
    public init(autoApprove: Bool = false, now: @escaping @Sendable () -> Int = { Int(time(nil)) }) {
        self.autoApprove = autoApprove
        self.now = now
    }

    // MARK: Login

    /// A new request token (40 lowercase hex digits) and when it expires (seconds since 1970).
    public func newRequestToken() -> (token: String, expiresAt: Int) {
        let token = Self.randomHex()
        let expiresAt = now() + Self.tokenLifetimeSeconds
        state.withLock { $0.tokens[token] = AccountState.RequestToken(approved: autoApprove, expiresAt: expiresAt) }
        return (token, expiresAt)
    }

    /// Approves request token `token` as the user would on TMDB's site; false when it is unknown,
    /// used up or expired.
    @discardableResult
    public func approve(token: String) -> Bool {
        let time = now()
        return state.withLock { state in
            guard let pending = state.tokens[token], pending.expiresAt > time else { return false }
            state.tokens[token]?.approved = true
            return true
        }
    }

    /// Approves every request token not yet approved, used or expired; returns them, sorted.
    @discardableResult
    public func approveAllTokens() -> [String] {
        let time = now()
        return state.withLock { state in
            let pending = state.tokens.filter { !$0.value.approved && $0.value.expiresAt > time }.keys.sorted()
            for token in pending { state.tokens[token]?.approved = true }
            return pending
        }
    }

    /// Turns an approved request token into a session (using the token up).
    public func createSession(requestToken token: String) -> SessionOutcome {
        let time = now()
        let sessionID = Self.randomHex()
        return state.withLock { state in
            state.tokens = state.tokens.filter { $0.value.expiresAt > time }
            guard let pending = state.tokens[token] else { return .invalidToken }
            guard pending.approved else { return .denied }
            state.tokens[token] = nil
            state.sessions.insert(sessionID)
            return .created(sessionID: sessionID)
        }
    }

    /// Whether `sessionID` is a valid session.
    public func isValid(sessionID: String) -> Bool {
        state.withLock { $0.sessions.contains(sessionID) }
    }

    /// Ends session `sessionID`; false when it was not valid.
    public func deleteSession(_ sessionID: String) -> Bool {
        state.withLock { $0.sessions.remove(sessionID) != nil }
    }

    /// Invalidates every session (the control port's `POST /account/expire-sessions`); returns how many.
    @discardableResult
    public func expireSessions() -> Int {
        state.withLock { state in
            defer { state.sessions.removeAll() }
            return state.sessions.count
        }
    }

    /// How many sessions are valid.
    public var sessionCount: Int { state.withLock { $0.sessions.count } }

    // MARK: Lists

    /// The ids on `list`, in the order they were added (rated: first rated first).
    public func ids(on list: AccountList) -> [Int] {
        state.withLock { $0.ids(on: list) }
    }

    /// The rating of movie `id`, if the user rated it.
    public func rating(of id: Int) -> Double? {
        state.withLock { $0.rating(of: id) }
    }

    /// The ratings, first rated first.
    public var ratings: [(movieID: Int, value: Double)] { state.withLock { $0.ratings } }

    /// Whether movie `id` is on the watchlist and the favourites, and its rating, read together.
    public func states(of id: Int) -> (watchlist: Bool, favorite: Bool, rating: Double?) {
        state.withLock { ($0.watchlist.contains(id), $0.favorite.contains(id), $0.rating(of: id)) }
    }

    // MARK: Writes

    /// Adds movie `id` to (`on` true) or removes it from the watchlist, and logs the write.
    public func setWatchlist(movieID id: Int, _ on: Bool) -> WriteOutcome {
        mark(id, on, in: \.watchlist, kind: .watchlist)
    }

    /// Adds movie `id` to (`on` true) or removes it from the favourites, and logs the write.
    public func setFavorite(movieID id: Int, _ on: Bool) -> WriteOutcome {
        mark(id, on, in: \.favorite, kind: .favorite)
    }

    private func mark(_ id: Int, _ on: Bool, in list: WritableKeyPath<AccountState, [Int]> & Sendable, kind: AccountWrite.Kind) -> WriteOutcome {
        state.withLock { state in
            let outcome: WriteOutcome
            if !on {
                outcome = .deleted
                state[keyPath: list].removeAll { $0 == id }
            } else if state[keyPath: list].contains(id) {
                outcome = .updated
            } else {
                outcome = .created
                state[keyPath: list].append(id)
            }
            state.log(kind, movieID: id, value: .flag(on), limit: Self.writeLogLimit)
            return outcome
        }
    }

    /// Rates movie `id` (a rated movie keeps its place in the rated list), removes it from the
    /// watchlist as TMDB does, and logs the write.
    public func rate(movieID id: Int, value: Double) -> WriteOutcome {
        state.withLock { state in
            let outcome: WriteOutcome
            if let index = state.ratings.firstIndex(where: { $0.movieID == id }) {
                state.ratings[index].value = value
                outcome = .updated
            } else {
                state.ratings.append((id, value))
                outcome = .created
            }
            state.watchlist.removeAll { $0 == id }
            state.log(.rating, movieID: id, value: .rating(value), limit: Self.writeLogLimit)
            return outcome
        }
    }

    /// Deletes the rating of movie `id` (rated or not) and logs the write.
    @discardableResult
    public func removeRating(movieID id: Int) -> WriteOutcome {
        state.withLock { state in
            state.ratings.removeAll { $0.movieID == id }
            state.log(.rating, movieID: id, value: .removed, limit: Self.writeLogLimit)
            return .deleted
        }
    }

    /// How many writes the API applied since start (or ``clear()``).
    public var writeCount: Int { state.withLock { $0.writeCount } }

    /// The latest applied writes, oldest first.
    public var writeLog: [AccountWrite] { state.withLock { $0.writeLog } }

    // MARK: Control

    /// Replaces the lists given (nil keeps one), as edits on TMDB's website would; not logged as writes.
    /// Duplicate ids keep their first place.
    public func replace(watchlist: [Int]? = nil, favorite: [Int]? = nil, ratings: [(movieID: Int, value: Double)]? = nil) {
        func unique(_ ids: [Int]) -> [Int] {
            var seen = Set<Int>()
            return ids.filter { seen.insert($0).inserted }
        }
        state.withLock { state in
            if let watchlist { state.watchlist = unique(watchlist) }
            if let favorite { state.favorite = unique(favorite) }
            if let ratings {
                var seen = Set<Int>()
                state.ratings = ratings.filter { seen.insert($0.movieID).inserted }
            }
        }
    }

    /// Empties the lists, the ratings, the write log and the write count; tokens and sessions stay.
    public func clear() {
        state.withLock { state in
            state.watchlist = []
            state.favorite = []
            state.ratings = []
            state.writeCount = 0
            state.writeLog = []
        }
    }

    /// Everything at one moment, for the control port's JSON and an account list page.
    var snapshot: AccountState { state.withLock { $0 } }

    /// 20 random bytes as 40 lowercase hex digits, like TMDB's tokens and session ids.
    private static func randomHex() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<40).map { _ in digits[Int(generator.next() % 16)] })
    }
}
