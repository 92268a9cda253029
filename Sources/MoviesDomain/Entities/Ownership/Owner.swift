/// Whom a watchlist or a TMDB account (its session, outbox and pulled lists) belongs to.
///
/// - `system`: the daemon's. System watchlists are listed to everyone and edited by root, the
///   daemon's user and the admin group; the system account is the admin group's (the session of
///   0.1.0, and systemd's `LoadCredential=tmdb-session`).
/// - `user`: one local user's (`SO_PEERCRED` uid). Listed, edited, refreshed and used by that
///   user only, and by root.
public enum Owner: Sendable, Hashable, CustomStringConvertible {
    /// The daemon's: shared, administered by the admin group.
    case system
    /// One local user's own.
    case user(LocalUser)

    /// The user, for a personal owner.
    public var user: LocalUser? {
        if case .user(let user) = self { return user }
        return nil
    }

    /// `system`, or `uid 1000`.
    public var description: String {
        switch self {
        case .system: "system"
        case .user(let user): user.description
        }
    }
}
