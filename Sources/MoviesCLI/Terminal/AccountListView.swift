import FoundationEssentials
import MoviesDomain
import MoviesWire

/// The account's lists as text: a heading, then each list with its movies (id, title, year,
/// rating), edits TMDB has not confirmed marked "(pending)".
enum AccountListView {
    /// The lines for `account`.
    static func lines(_ account: AccountReply, now: Date) -> [String] {
        let who = account.username.map { "\(TextFitting.printable($0)) (\(account.accountId))" } ?? "\(account.accountId)"
        let pulled = account.pulledAt.map { "lists pulled \(RelativeAge.describe(seconds: max(0, Int(now.timeIntervalSince($0)))))" } ?? "lists not pulled yet"
        var lines = ["TMDB account \(who); \(pulled)"]
        if account.signedIn == false {
            lines.append("Signed out: the lists as they were; waiting edits go to TMDB at the next sign-in to this account (movies account login).")
        }
        for (name, items) in [("Watchlist", account.watchlist), ("Favourites", account.favorites), ("Rated", account.rated)] {
            lines.append("\(name): \(items.isEmpty ? "none" : String(items.count))")
            let width = items.map { String($0.movieID).count }.max() ?? 0
            for item in items { lines.append("  " + line(item, idWidth: width)) }
        }
        return lines
    }

    /// "603  The Matrix (1999)  8.5  (pending)".
    static func line(_ item: AccountItem, idWidth: Int) -> String {
        let id = String(item.movieID)
        var text = String(repeating: " ", count: max(0, idWidth - id.count)) + id
        text += "  " + (item.title.map(TextFitting.printable) ?? "(title not known yet)")
        if let year = item.releaseDate?.prefix(4), year.count == 4 { text += " (\(year))" }
        if let rating = item.rating { text += "  \(RatingFormat.oneDecimal(rating))" }
        if item.pending { text += "  (pending)" }
        return text
    }

    /// The outbox as lines: "#12 pending  add 603 to the watchlist — 3 attempt(s), next in 30 s: reason".
    static func pendingLines(_ reply: PendingReply, now: Date) -> [String] {
        var lines = [AccountSyncLine.describe(reply.sync, now: now)]
        if reply.entries.isEmpty { lines.append("No edits waiting.") }
        for entry in reply.entries {
            var line = "#\(entry.id) \(entry.state.rawValue)  \(AccountSyncLine.describe(entry.edit))"
            var details: [String] = []
            if entry.attempts > 0 { details.append("\(entry.attempts) attempt(s)") }
            if let next = entry.nextAttemptAt, next > now, entry.state == .pending {
                details.append("next try in \(RelativeAge.duration(seconds: Int(next.timeIntervalSince(now).rounded(.up))))")
            }
            if !details.isEmpty { line += " — " + details.joined(separator: ", ") }
            if let error = entry.lastError { line += ": \(TextFitting.printable(error))" }
            lines.append(line)
        }
        if reply.entries.contains(where: { $0.state == .rejected }) {
            lines.append("Refused edits were undone; 'movies pending --dismiss-rejected' forgets them.")
        }
        return lines
    }
}
