/// The TMDB account: signing in, its lists (pulled, with offline edits on top) and the outbox of
/// edits waiting for TMDB. Adapter: `DefaultAccountRepository` (MoviesData).
public protocol AccountRepository: Sendable {
    /// Signs in: completes an approved request, or starts a new one and says where to approve it.
    /// Already signed in: the account.
    func login() async throws -> AccountLogin
    /// Ends the session on TMDB (when reachable) and forgets it; edits not yet sent stay in the
    /// outbox for the next sign-in to the same account. Returns how many stay.
    func logout() async throws -> Int
    /// Records `edit` in the outbox and the account's lists at once (one transaction), then sends
    /// it. Without `waitSeconds`, waits only for the first attempt and only while TMDB is answering
    /// (at most `ManageAccountUseCase.defaultEditWaitSeconds`): a failed attempt returns "pending"
    /// at once. With `waitSeconds`, waits that long for TMDB to take it, through retries. Throws
    /// `remoteRejected` (code 3) when nobody signed in.
    func apply(_ edit: AccountEdit, waitSeconds: Double?) async throws -> AccountEditResult
    /// The account's lists: TMDB's last pulled state with every unconfirmed edit applied.
    func view() async throws -> AccountView
    /// The outbox, oldest first (rejected entries included).
    func pending() async throws -> [PendingEdit]
    /// Sends what is due and pulls the lists; with `waitSeconds`, keeps at it until every edit is
    /// on TMDB and shown by its lists, or TMDB refuses the session, or the time is up.
    func sync(waitSeconds: Double?) async throws -> AccountSyncStatus
    /// The outbox's state.
    func status() async throws -> AccountSyncStatus
    /// Forgets the rejected entries (the user has read why); returns how many.
    func dismissRejected() async throws -> Int
}
