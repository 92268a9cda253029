import FoundationEssentials
import MoviesData
import MoviesDomain
import Synchronization

/// A TMDB account in memory, as an `AccountRemote`: the login flow, the three lists (20 a page),
/// set-state writes with TMDB's codes (1, 12, 13; 34 for an unknown movie; 18 for a bad rating)
/// and the side effect of rating (the movie leaves the watchlist). Each call first asks `fault`
/// what to do, so tests and the simulation inject outages, refusals, lost answers and crashes.
public final class SimulatedTMDBAccount: AccountRemote, Sendable {
    /// What a call does instead of (or besides) answering normally.
    public enum Fault: Sendable, Hashable {
        /// Answer normally.
        case none
        /// No answer: the network failed (nothing applied).
        case transport
        /// HTTP 429, TMDB code 25 (nothing applied).
        case rateLimited
        /// HTTP 500, TMDB code 11 (nothing applied).
        case serverError
        /// HTTP 401, TMDB code 3: the session is no longer valid (and stays invalid).
        case sessionExpired
        /// The write is applied, then the answer is lost (a reset).
        case dropAfterApply
        /// The write is applied, then the caller dies before it hears back (`CancellationError`).
        case applyThenCrash
        /// HTTP 200 with a body that does not confirm the write (nothing applied), as
        /// `TMDBAccountRemote` reports it.
        case unconfirmedAnswer
    }

    /// What a call is, for `fault`.
    public enum Call: Sendable, Hashable {
        case write(AccountEdit)
        case listPage(AccountList, Int)
        case other
    }

    /// The account's state on "TMDB".
    public struct State: Sendable, Hashable {
        public var watchlist: [Int] = []
        public var favorites: [Int] = []
        public var ratings: [Int: Double] = [:]
        public var ratedOrder: [Int] = []

        /// An empty account.
        public init() {}
    }

    private struct Inner {
        var state = State()
        var approved = Set<String>()
        var tokens = Set<String>()
        var sessions = Set<String>()
        var nextID = 1
        var writes = 0
        var requests: [Call] = []
        var listed: State?
    }

    /// The account id.
    public let accountID: Int
    /// Movie ids TMDB knows (others answer 34); `nil`: every positive id.
    public let knownMovies: Set<Int>?
    private let inner = Mutex(Inner())
    /// The rule in a struct: a function held directly as a `Mutex`'s value gains a pair of
    /// reabstraction thunks at each access (see `SQLiteStore`'s outcome observer).
    private struct FaultRule: Sendable { let decide: @Sendable (Call) -> Fault }
    private let faultRule: Mutex<FaultRule>

    /// Creates an account; `fault` decides each call's fault (default none).
    public init(accountID: Int = 22011, knownMovies: Set<Int>? = nil, fault: @escaping @Sendable (Call) -> Fault = { _ in .none }) {
        self.accountID = accountID
        self.knownMovies = knownMovies
        self.faultRule = Mutex(FaultRule(decide: fault))
    }

    /// Replaces the fault rule.
    public func setFault(_ rule: @escaping @Sendable (Call) -> Fault) {
        faultRule.withLock { $0 = FaultRule(decide: rule) }
    }

    /// The account's state now.
    public var state: State { inner.withLock { $0.state } }
    /// Replaces the state (an edit made on the TMDB website).
    public func setState(_ state: State) { inner.withLock { $0.state = state } }
    /// Writes applied so far.
    public var writes: Int { inner.withLock { $0.writes } }
    /// Every call made, in order.
    public var requests: [Call] { inner.withLock { $0.requests } }
    /// A valid session id, as if the user had signed in on another device (for tests).
    public func openSession() -> String {
        inner.withLock { inner in
            let id = "session-\(inner.nextID)"
            inner.nextID += 1
            inner.sessions.insert(id)
            return id
        }
    }
    /// Approves every request token handed out.
    public func approveAll() { inner.withLock { $0.approved.formUnion($0.tokens) } }
    /// Makes the list endpoints answer `state` instead of the live state (TMDB's lists lagging
    /// behind its writes); `nil` for the live state again.
    public func setListedState(_ state: State?) { inner.withLock { $0.listed = state } }
    /// Invalidates every session.
    public func expireSessions() { inner.withLock { $0.sessions.removeAll() } }

    private func begin(_ call: Call) throws -> Fault {
        let fault = faultRule.withLock { $0 }.decide(call)
        inner.withLock { $0.requests.append(call) }
        switch fault {
        case .transport: throw MoviesError(code: .remoteUnavailable, message: "TMDB refused the connection (simulated).")
        case .rateLimited: throw MoviesError(code: .remoteUnavailable, message: "rate limited (simulated)", retryAfterSeconds: 1, httpStatus: 429, tmdbCode: 25)
        case .serverError: throw MoviesError(code: .remoteUnavailable, message: "internal error (simulated)", httpStatus: 500, tmdbCode: 11)
        case .unconfirmedAnswer: throw MoviesError(code: .invalidResponse, message: "TMDB answered HTTP 200 without confirming the change (simulated)", httpStatus: 200)
        case .sessionExpired:
            inner.withLock { $0.sessions.removeAll() }
            throw Self.authFailed
        default: return fault
        }
    }

    static let authFailed = MoviesError(code: .remoteRejected, message: "Authentication failed (simulated).", httpStatus: 401, tmdbCode: 3)

    private func requireSession(_ id: String) throws {
        guard inner.withLock({ $0.sessions.contains(id) }) else { throw Self.authFailed }
    }

    public func createRequestToken() async throws -> AccountRequestToken {
        _ = try begin(.other)
        return inner.withLock { inner in
            let token = "token-\(inner.nextID)"
            inner.nextID += 1
            inner.tokens.insert(token)
            return AccountRequestToken(token: token, expiresAt: nil)
        }
    }

    public func createSession(requestToken: String) async throws -> String {
        _ = try begin(.other)
        return try inner.withLock { inner in
            guard inner.tokens.contains(requestToken) else { throw MoviesError(code: .remoteRejected, message: "Invalid request token.", httpStatus: 401, tmdbCode: 33) }
            guard inner.approved.contains(requestToken) else { throw MoviesError(code: .remoteRejected, message: "Session denied.", httpStatus: 401, tmdbCode: 17) }
            inner.tokens.remove(requestToken)
            let id = "session-\(inner.nextID)"
            inner.nextID += 1
            inner.sessions.insert(id)
            return id
        }
    }

    public func deleteSession(_ sessionID: String) async throws {
        _ = try begin(.other)
        inner.withLock { _ = $0.sessions.remove(sessionID) }
    }

    public func accountDetails(sessionID: String) async throws -> (id: Int, username: String?) {
        _ = try begin(.other)
        try requireSession(sessionID)
        return (accountID, "sim-user")
    }

    public func listPage(_ list: AccountList, session: AccountSession, page: Int) async throws -> AccountListPage {
        _ = try begin(.listPage(list, page))
        try requireSession(session.sessionID)
        let state = inner.withLock { $0.listed ?? $0.state }
        let items: [AccountItem] = switch list {
        case .watchlist: state.watchlist.map { AccountItem(movieID: $0, title: "Movie \($0)") }
        case .favorite: state.favorites.map { AccountItem(movieID: $0, title: "Movie \($0)") }
        case .rated: state.ratedOrder.map { AccountItem(movieID: $0, title: "Movie \($0)", rating: state.ratings[$0]) }
        }
        let pages = max(1, (items.count + 19) / 20)
        let start = (page - 1) * 20
        return AccountListPage(items: start < items.count ? Array(items[start..<min(items.count, start + 20)]) : [], totalPages: pages)
    }

    public func send(_ edit: AccountEdit, session: AccountSession) async throws -> Int {
        let fault = try begin(.write(edit))
        try requireSession(session.sessionID)
        if let knownMovies, !knownMovies.contains(edit.movieID) {
            throw MoviesError(code: .remoteRejected, message: "TMDB refused to \(edit) (HTTP 404, code 34): The resource you requested could not be found.", httpStatus: 404, tmdbCode: 34)
        }
        let code = inner.withLock { inner in
            inner.writes += 1
            return Self.apply(edit, to: &inner.state)
        }
        switch fault {
        case .dropAfterApply: throw MoviesError(code: .remoteUnavailable, message: "TMDB reset the connection before answering (simulated).")
        case .applyThenCrash: throw CancellationError()
        default: return code
        }
    }

    /// Applies `edit` as TMDB does; returns TMDB's status code.
    public static func apply(_ edit: AccountEdit, to state: inout State) -> Int {
        let id = edit.movieID
        switch edit.change {
        case .watchlist(true):
            if state.watchlist.contains(id) { return 12 }
            state.watchlist.append(id)
            return 1
        case .watchlist(false):
            state.watchlist.removeAll { $0 == id }
            return 13
        case .favorite(true):
            if state.favorites.contains(id) { return 12 }
            state.favorites.append(id)
            return 1
        case .favorite(false):
            state.favorites.removeAll { $0 == id }
            return 13
        case .rating(let value?):
            let known = state.ratings[id] != nil
            state.ratings[id] = value
            if !known { state.ratedOrder.append(id) }
            state.watchlist.removeAll { $0 == id }
            return known ? 12 : 1
        case .rating(nil):
            state.ratings[id] = nil
            state.ratedOrder.removeAll { $0 == id }
            return 13
        }
    }
}
