import FoundationEssentials

/// One entry of the account's outbox: an edit not yet confirmed on TMDB, or one TMDB refused.
public struct PendingEdit: Sendable, Hashable {
    /// Where the entry stands.
    public enum State: String, Sendable, Hashable, CaseIterable, Codable {
        /// Waiting to be sent (never tried, or due again after a failure that may pass).
        case pending
        /// Waiting for a session: TMDB refused the sign-in; kept until the user signs in again.
        case blockedOnAuth = "blocked_on_auth"
        /// TMDB accepted it; kept over the account's lists until a pull shows it.
        case delivered
        /// TMDB refused it for good; its change is undone and the reason kept for the user.
        case rejected
    }

    /// The outbox's sequence number: edits are sent in this order.
    public var id: Int64
    /// The edit.
    public var edit: AccountEdit
    /// Where it stands.
    public var state: State
    /// When the user made it.
    public var createdAt: Date
    /// Requests made for it so far.
    public var attempts: Int
    /// Why the last attempt failed (or why TMDB refused it).
    public var lastError: String?
    /// When it is tried again, after a failure that may pass.
    public var nextAttemptAt: Date?
    /// When TMDB took it (delivered) or refused it (rejected), on the wall clock; the daemon's own
    /// bookkeeping, not part of the interface's `PendingEdit`.
    public var settledAt: Date?

    /// Creates an entry.
    public init(
        id: Int64, edit: AccountEdit, state: State, createdAt: Date, attempts: Int = 0, lastError: String? = nil, nextAttemptAt: Date? = nil,
        settledAt: Date? = nil
    ) {
        self.settledAt = settledAt
        self.id = id
        self.edit = edit
        self.state = state
        self.createdAt = createdAt
        self.attempts = attempts
        self.lastError = lastError
        self.nextAttemptAt = nextAttemptAt
    }

    /// Whether its change shows in the account's lists (everything but a rejected entry).
    public var isApplied: Bool { state != .rejected }
}

extension PendingEdit: Codable {
    enum CodingKeys: String, CodingKey {
        case seq, list, movieId, on, rating, state, createdAt, attempts, lastError, nextAttemptAt
    }

    /// Decodes the interface's `PendingEdit`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let list = try container.decode(AccountList.self, forKey: .list)
        let movieID = try container.decode(Int.self, forKey: .movieId)
        let value: Double? = list == .rated
            ? try container.decodeIfPresent(Double.self, forKey: .rating)
            : (try container.decodeIfPresent(Bool.self, forKey: .on) ?? false) ? 1 : 0
        self.init(
            id: try container.decode(Int64.self, forKey: .seq), edit: .stored(list: list, movieID: movieID, value: value),
            state: try container.decode(State.self, forKey: .state), createdAt: try container.decode(Date.self, forKey: .createdAt),
            attempts: try container.decode(Int.self, forKey: .attempts), lastError: try container.decodeIfPresent(String.self, forKey: .lastError),
            nextAttemptAt: try container.decodeIfPresent(Date.self, forKey: .nextAttemptAt))
    }

    /// Encodes the interface's `PendingEdit`: `on` for the watchlist and favourites, `rating` (absent: remove it) for ratings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .seq)
        try container.encode(edit.list, forKey: .list)
        try container.encode(edit.movieID, forKey: .movieId)
        switch edit.change {
        case .watchlist(let on), .favorite(let on): try container.encode(on, forKey: .on)
        case .rating(let value): try container.encodeIfPresent(value, forKey: .rating)
        }
        try container.encode(state, forKey: .state)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(attempts, forKey: .attempts)
        try container.encodeIfPresent(lastError, forKey: .lastError)
        try container.encodeIfPresent(nextAttemptAt, forKey: .nextAttemptAt)
    }
}
