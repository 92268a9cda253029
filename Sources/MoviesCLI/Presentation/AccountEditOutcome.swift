import MoviesDomain
import MoviesWire

/// The one sentence that says what became of an edit of the TMDB account's lists, as
/// `movies account watchlist add` prints it and `movies browse` shows it: done on TMDB, refused,
/// or "saved, pending" (offline, or the session refused) with when it goes to TMDB.
enum AccountEditOutcome {
    /// The sentence for `edit` answered with `reply`; `title` names the movie when known.
    static func describe(_ edit: AccountEdit, _ reply: AccountEditReply, title: String? = nil) -> String {
        let what = AccountSyncLine.describe(edit, title: title)
        let done = what.prefix(1).uppercased() + what.dropFirst()
        if reply.onTmdb { return "\(done): done, on TMDB." }
        if reply.entry.state == .rejected {
            return "\(done): refused by TMDB, so undone here — \(AccountCommand.clause(reply.entry.lastError ?? "no reason given"))."
        }
        if reply.entry.state == .blockedOnAuth || reply.sync.activity == .blockedOnAuth {
            return "\(done): saved, pending — TMDB refused the session; it goes to TMDB after 'movies account login'."
        }
        let why = reply.sync.lastError.map { " (\(AccountCommand.clause($0)))" } ?? ""
        return "\(done): saved, pending — it goes to TMDB when TMDB can be reached\(why); 'movies pending' lists what waits."
    }
}
