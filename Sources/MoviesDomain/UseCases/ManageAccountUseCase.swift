/// Signs in to TMDB, edits the account's lists (offline too: edits wait in a durable outbox) and
/// syncs them: the account's use cases, over `AccountRepository`.
public struct ManageAccountUseCase: Sendable {
    /// The longest an edit waits for TMDB's first answer before its reply says "pending" (the edit
    /// is kept either way); it waits only while TMDB is answering, and not after a failed attempt.
    public static let defaultEditWaitSeconds = 2.0
    /// The longest `sync` may be asked to wait.
    public static let maxSyncWaitSeconds = 3600.0

    private let repository: any AccountRepository

    /// Creates the use case.
    public init(repository: any AccountRepository) {
        self.repository = repository
    }

    /// Signs in, or says where to approve the sign-in.
    public func login() async throws -> AccountLogin { try await repository.login() }

    /// Signs out; returns how many edits stay in the outbox.
    public func logout() async throws -> Int { try await repository.logout() }

    /// Applies `edit` now and queues it for TMDB. Without `waitSeconds`, waits for TMDB's first
    /// answer only while TMDB is answering (at most `defaultEditWaitSeconds`); with it, up to that
    /// long for TMDB to take the edit, through retries.
    public func apply(_ edit: AccountEdit, waitSeconds: Double? = nil) async throws -> AccountEditResult {
        if let wait = waitSeconds, !(wait.isFinite && wait >= 0 && wait <= 60) { throw MoviesError.invalidArgument("waitSeconds must be 0 to 60") }
        return try await repository.apply(edit, waitSeconds: waitSeconds)
    }

    /// The account's lists.
    public func view() async throws -> AccountView { try await repository.view() }

    /// The outbox.
    public func pending() async throws -> [PendingEdit] { try await repository.pending() }

    /// Syncs now; with `waitSeconds`, until settled, blocked or out of time.
    public func sync(waitSeconds: Double?) async throws -> AccountSyncStatus {
        if let waitSeconds, !(waitSeconds.isFinite && waitSeconds >= 0 && waitSeconds <= Self.maxSyncWaitSeconds) {
            throw MoviesError.invalidArgument("the wait must be 0 to \(Int(Self.maxSyncWaitSeconds)) seconds")
        }
        return try await repository.sync(waitSeconds: waitSeconds)
    }

    /// The outbox's state.
    public func status() async throws -> AccountSyncStatus { try await repository.status() }

    /// Forgets rejected entries.
    public func dismissRejected() async throws -> Int { try await repository.dismissRejected() }
}
