import FoundationEssentials
import MoviesDomain

/// One line for the account's outbox, as `movies status`, `sync` and `pending` print it.
enum AccountSyncLine {
    /// "stub-user: idle, every edit on TMDB; lists pulled 3 min ago", "stub-user: offline, 4
    /// edit(s) waiting (next try in 30 s): TMDB refused the connection", "signed out".
    static func describe(_ sync: AccountSyncStatus, now: Date) -> String {
        guard sync.activity != .signedOut else { return "signed out (movies account login)" }
        let who = sync.username ?? sync.accountID.map { "account \($0)" } ?? "account"
        var parts: [String] = []
        switch sync.activity {
        case .signedOut: break
        case .idle: parts.append("idle")
        case .syncing: parts.append("syncing")
        case .offline: parts.append("offline")
        case .blockedOnAuth: parts.append("blocked: TMDB refused the session, sign in again (movies account login)")
        }
        if sync.pending == 0, sync.unconfirmed == 0 {
            parts.append("every edit on TMDB")
        } else {
            if sync.pending > 0 {
                var waiting = "\(sync.pending) edit(s) waiting"
                if let next = sync.nextAttemptAt { waiting += " (next try in \(RelativeAge.duration(seconds: max(0, Int(next.timeIntervalSince(now).rounded(.up))))))" }
                parts.append(waiting)
            }
            if sync.unconfirmed > 0 { parts.append("\(sync.unconfirmed) on TMDB, not yet in its lists") }
        }
        if sync.rejected > 0 { parts.append("\(sync.rejected) refused by TMDB (movies pending)") }
        var line = "\(TextFitting.printable(who)): " + parts.joined(separator: ", ")
        if let pulled = sync.pulledAt {
            line += "; lists pulled \(RelativeAge.describe(seconds: max(0, Int(now.timeIntervalSince(pulled)))))"
        } else {
            line += "; lists never pulled"
        }
        if let error = sync.lastError, sync.activity != .idle || sync.pending > 0 { line += " — \(AccountCommand.clause(error))" }
        return line
    }

    /// "add 603 to the watchlist" etc., with the movie's title when known.
    static func describe(_ edit: AccountEdit, title: String? = nil) -> String {
        let movie = title.map { "\(edit.movieID) (\(TextFitting.printable($0)))" } ?? String(edit.movieID)
        switch edit.change {
        case .watchlist(true): return "add \(movie) to the watchlist"
        case .watchlist(false): return "remove \(movie) from the watchlist"
        case .favorite(true): return "mark \(movie) as a favourite"
        case .favorite(false): return "unmark \(movie) as a favourite"
        case .rating(let value?): return "rate \(movie) \(RatingFormat.oneDecimal(value))"
        case .rating(nil): return "remove the rating of \(movie)"
        }
    }
}
