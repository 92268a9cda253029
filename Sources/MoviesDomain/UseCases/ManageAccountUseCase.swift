/// Signs in to TMDB, edits the account's lists (offline too: edits wait in a durable outbox) and
/// syncs them: the account's use cases, over one `AccountRepository` per owner.
///
/// Whose account a call uses is its `OwnerScope`'s (`OwnerScope.account`): the caller's own; with
/// `system`, the system's (the admin group's), for administrators only. Each user's pending edits
/// are bounded by `UserQuotas.pendingEdits`.
public struct ManageAccountUseCase: Sendable {
    /// The longest an edit waits for TMDB's first answer before its reply says "pending" (the edit
    /// is kept either way); it waits only while TMDB is answering, and not after a failed attempt.
    public static let defaultEditWaitSeconds = 2.0
    /// The longest `sync` may be asked to wait.
    public static let maxSyncWaitSeconds = 3600.0

    private let repositories: any AccountRepositories
    /// Each user's share of pending edits.
    public let quotas: UserQuotas

    /// Creates the use case.
    public init(repositories: any AccountRepositories, quotas: UserQuotas = UserQuotas()) {
        self.repositories = repositories
        self.quotas = quotas
    }

    /// The account of a call in `scope`.
    private func account(_ scope: OwnerScope) async throws -> (owner: Owner, account: any AccountRepository) {
        guard let owner = scope.account else { throw MoviesError.permissionDenied("a caller without credentials has no account") }
        return (owner, await repositories.account(of: owner))
    }

    /// Signs in, or says where to approve the sign-in.
    public func login(_ scope: OwnerScope) async throws -> AccountLogin { try await account(scope).account.login() }

    /// Signs out; returns how many edits stay in the outbox.
    public func logout(_ scope: OwnerScope) async throws -> Int { try await account(scope).account.logout() }

    /// Applies `edit` now and queues it for TMDB. Without `waitSeconds`, waits for TMDB's first
    /// answer only while TMDB is answering (at most `defaultEditWaitSeconds`); with it, up to that
    /// long for TMDB to take the edit, through retries.
    /// - Throws: `quotaExceeded` (`PendingEditsPerUser`) when a user's outbox is full and the edit
    ///   would not replace one of its entries.
    public func apply(_ edit: AccountEdit, waitSeconds: Double? = nil, in scope: OwnerScope) async throws -> AccountEditResult {
        if let wait = waitSeconds, !(wait.isFinite && wait >= 0 && wait <= 60) { throw MoviesError.invalidArgument("waitSeconds must be 0 to 60") }
        let (owner, account) = try await account(scope)
        if owner != .system, quotas.pendingEdits < Int.max {
            let waiting = try await account.pending().filter { $0.state == .pending || $0.state == .blockedOnAuth }
            let replaces = waiting.contains { $0.edit.movieID == edit.movieID && $0.edit.list == edit.list }
            if waiting.count >= quotas.pendingEdits, !replaces {
                throw quotas.exceeded(
                    "PendingEditsPerUser", maximum: quotas.pendingEdits, "\(waiting.count) of your edits wait for TMDB, your share", "sync them first (movies sync)")
            }
        }
        return try await account.apply(edit, waitSeconds: waitSeconds)
    }

    /// The account's lists.
    public func view(_ scope: OwnerScope) async throws -> AccountView { try await account(scope).account.view() }

    /// The outbox.
    public func pending(_ scope: OwnerScope) async throws -> [PendingEdit] { try await account(scope).account.pending() }

    /// Syncs now; with `waitSeconds`, until settled, blocked or out of time.
    public func sync(waitSeconds: Double?, in scope: OwnerScope) async throws -> AccountSyncStatus {
        if let waitSeconds, !(waitSeconds.isFinite && waitSeconds >= 0 && waitSeconds <= Self.maxSyncWaitSeconds) {
            throw MoviesError.invalidArgument("the wait must be 0 to \(Int(Self.maxSyncWaitSeconds)) seconds")
        }
        return try await account(scope).account.sync(waitSeconds: waitSeconds)
    }

    /// The outbox's state.
    public func status(_ scope: OwnerScope) async throws -> AccountSyncStatus { try await account(scope).account.status() }

    /// For `Status`: the outbox's state of the caller's own account, and of the system's when the
    /// caller administers it (`nil` for those it may not see, or that cannot be read).
    public func statuses(in scope: OwnerScope) async -> (own: AccountSyncStatus?, system: AccountSyncStatus?) {
        let own = scope.own == nil ? nil : try? await account(scope).account.status()
        let system = scope.mayManage(.system) ? try? await repositories.account(of: .system).status() : nil
        return (own, system)
    }

    /// Forgets rejected entries.
    public func dismissRejected(_ scope: OwnerScope) async throws -> Int { try await account(scope).account.dismissRejected() }
}
