/// The mutable state of the stub's one account, guarded by ``StubAccount``'s mutex.
struct AccountState: Sendable {
    /// A request token of `GET /3/authentication/token/new`.
    struct RequestToken: Sendable {
        /// Whether the user approved it (`POST /account/approve`, or at once with `--auto-approve`).
        var approved: Bool
        /// When it expires, in seconds since 1970 (UTC).
        var expiresAt: Int
    }

    /// Unused request tokens by value.
    var tokens: [String: RequestToken] = [:]
    /// The valid session ids.
    var sessions: Set<String> = []
    /// The watchlist's movie ids in the order they were added.
    var watchlist: [Int] = []
    /// The favourite movie ids in the order they were added.
    var favorite: [Int] = []
    /// The ratings in the order the movies were first rated.
    var ratings: [(movieID: Int, value: Double)] = []
    /// How many writes were applied.
    var writeCount = 0
    /// The latest applied writes, oldest first (at most ``StubAccount/writeLogLimit``).
    var writeLog: [AccountWrite] = []

    /// The ids on `list`, in the order they were added.
    func ids(on list: AccountList) -> [Int] {
        switch list {
        case .watchlist: watchlist
        case .favorite: favorite
        case .rated: ratings.map(\.movieID)
        }
    }

    /// The rating of movie `id`, if rated.
    func rating(of id: Int) -> Double? {
        ratings.first { $0.movieID == id }?.value
    }

    /// Counts and logs a write, dropping the oldest log entry beyond `limit`.
    mutating func log(_ kind: AccountWrite.Kind, movieID: Int, value: AccountWrite.Value, limit: Int) {
        writeCount += 1
        writeLog.append(AccountWrite(seq: writeCount, kind: kind, movieID: movieID, value: value))
        if writeLog.count > limit { writeLog.removeFirst(writeLog.count - limit) }
    }
}
