import FoundationEssentials
import MoviesDomain
import SystemSupport

/// `AccountRepository`: what the daemon's account methods call (sign-in, edits, lists, outbox, sync).
extension AccountSync {
    // MARK: AccountRepository

    /// Signs in (see `AccountRepository.login`).
    public func login() async throws -> AccountLogin {
        if let session = await resolvedSession(), !authBlocked {
            // Still valid? TMDB may have ended it since the last call; unreachable counts as valid.
            do {
                _ = try await remote.accountDetails(sessionID: session.sessionID)
                return AccountLogin(accountID: session.accountID, username: session.username)
            } catch where AccountFailure.classify(error) == .auth {
                blockOnAuth(scrubbed(error, session: session))
            } catch {
                return AccountLogin(accountID: session.accountID, username: session.username)
            }
        }
        if let request = pendingLogin, request.expiresAt.map({ $0 > now() }) ?? true {
            do {
                let sessionID = try await remote.createSession(requestToken: request.token)
                return try await signedIn(sessionID: sessionID)
            } catch let error as MoviesError where error.tmdbCode == 17 {
                // Not approved yet.
                return AccountLogin(approvalURL: settings.approvalURLPrefix + request.token, expiresAt: request.expiresAt)
            } catch let error as MoviesError where error.tmdbCode == 33 {
                pendingLogin = nil
            }
        }
        let request = try await remote.createRequestToken()
        pendingLogin = request
        return AccountLogin(approvalURL: settings.approvalURLPrefix + request.token, expiresAt: request.expiresAt)
    }

    func signedIn(sessionID: String) async throws -> AccountLogin {
        let details = try await remote.accountDetails(sessionID: sessionID)
        let new = AccountSession(sessionID: sessionID, accountID: details.id, username: details.username)
        do {
            try sessions.save(new)
        } catch {
            throw MoviesError.storage(.unavailable, detail: "the session could not be saved: \(error)")
        }
        try? await storage.recordSync(accountID: new.accountID, username: new.username, succeededAt: now(), error: nil)
        session = new
        sessionLoaded = true
        pendingLogin = nil
        authBlocked = false
        outboxRetryAt = nil
        outboxFailures = 0
        lastError = nil
        events.record(DataEvent(.notice, "account.signed_in", "signed in to TMDB as \(new.username ?? "account \(new.accountID)")"))
        if settings.sendsEditsAtOnce { startPass(pull: true, force: true) }
        return AccountLogin(accountID: new.accountID, username: new.username)
    }

    /// Signs out (see `AccountRepository.logout`).
    public func logout() async throws -> Int {
        guard let current = await resolvedSession() ?? session else { throw MoviesError.notSignedIn() }
        // Forgotten here first: a session the system's credential holds cannot be, and then
        // nothing happens.
        do {
            try sessions.delete()
        } catch {
            throw MoviesError.notSignedIn("cannot sign out: \(error)")
        }
        session = nil
        do {
            try await remote.deleteSession(current.sessionID)
        } catch {
            events.record(DataEvent(.notice, "account.logout", "TMDB could not be told of the sign-out (\((error as? MoviesError)?.message ?? "error")); the session is forgotten here"))
        }
        authBlocked = false
        pendingLogin = nil
        let snapshot = try? await storage.snapshot(accountID: current.accountID)
        events.record(DataEvent(.notice, "account.signed_out", "signed out of TMDB"))
        return snapshot?.entries.filter { $0.state == .pending }.count ?? 0
    }

    /// Records and queues an edit (see `AccountRepository.apply`): durable first, then answered.
    /// An edit never waits for other edits: while the outbox backs off from a failing TMDB it is
    /// answered "pending" at once (the probe after the pause sends it); otherwise it is sent next,
    /// and without a wait the call waits for that one attempt only while TMDB is answering, at most
    /// `ManageAccountUseCase.defaultEditWaitSeconds`. With `waitSeconds`, it waits that long for
    /// TMDB to take it, through retries.
    public func apply(_ edit: AccountEdit, waitSeconds: Double?) async throws -> AccountEditResult {
        let session = try await requireSession()
        let entry: PendingEdit
        do {
            entry = try await storage.enqueue(edit, accountID: session.accountID, at: now())
        } catch {
            throw MoviesError.storage(wrapping: error)
        }
        if settings.sendsEditsAtOnce, !isBackingOff {
            urgent.append(entry)
            startPass(pull: false, force: false)
        }
        let waitsThroughRetries = waitSeconds != nil
        let deadline = time.now() + (waitSeconds ?? ManageAccountUseCase.defaultEditWaitSeconds)
        var current = entry
        while true {
            let remaining = deadline - time.now()
            if current.state != .pending || authBlocked || remaining <= 0 { break }
            if !waitsThroughRetries {
                if current.attempts > 0 || !settings.sendsEditsAtOnce || isBackingOff { break }
                // Not in line and not in flight: it waits behind an entry backing off alone.
                if !urgent.contains(where: { $0.id == entry.id }) && inFlight != entry.id && current.attempts == 0 && passTask == nil { break }
                if !(await tmdbIsAnswering()) { break }
            }
            await progress.wait(atMostSeconds: remaining)
            let snapshot = try? await storage.snapshot(accountID: session.accountID)
            // An entry gone was superseded by a newer edit of the same movie, or confirmed.
            current = snapshot?.entries.first { $0.id == entry.id } ?? PendingEdit(id: entry.id, edit: edit, state: .delivered, createdAt: entry.createdAt)
        }
        if authBlocked, current.state == .pending { current = heldBackByAuth(current) }
        return AccountEditResult(entry: current, sync: try await status())
    }

    /// The account's lists (see `AccountRepository.view`).
    public func view() async throws -> AccountView {
        let account = try await knownAccount()
        let snapshot = try await storageSnapshot(account.id)
        return AccountView(
            accountID: account.id, username: account.username ?? snapshot.username,
            lists: AccountOverlay.view(of: snapshot.lists, with: snapshot.entries), pulledAt: snapshot.pulledAt,
            signedIn: session != nil)
    }

    /// The outbox (see `AccountRepository.pending`).
    public func pending() async throws -> [PendingEdit] {
        let account = try await knownAccount()
        return try await storageSnapshot(account.id).entries.map { entry in
            authBlocked && entry.state == .pending ? heldBackByAuth(entry) : entry
        }
    }

    /// A pending entry as the refused session holds it: blocked, for the session's reason (not
    /// the last attempt's, which may be an outage before).
    private func heldBackByAuth(_ entry: PendingEdit) -> PendingEdit {
        var entry = entry
        entry.state = .blockedOnAuth
        entry.lastError = authBlockedReason ?? entry.lastError
        return entry
    }

    /// Syncs now (see `AccountRepository.sync`): an explicit command, so the outbox's pause ends
    /// and everything waiting is due.
    public func sync(waitSeconds: Double?) async throws -> AccountSyncStatus {
        let session = try await requireSession()
        guard !authBlocked else { return try await status() }
        try? await storage.makeDue(accountID: session.accountID)
        entryRetryAt.removeAll()
        outboxRetryAt = nil
        await pass(pull: true, force: true)
        guard let waitSeconds else { return try await status() }
        let deadline = time.now() + waitSeconds
        // Between looks: 0.5 s doubling to 8 s (or at once when a retry falls due sooner).
        let polling = Backoff(initialSeconds: 0.5, maxSeconds: 8)
        var looks = 0
        while true {
            let current = try await status()
            let remaining = deadline - time.now()
            if current.isSettled || authBlocked || remaining <= 0 { return current }
            looks += 1
            var delay = min(remaining, polling.seconds(afterFailures: looks))
            if current.pending > 0, let next = [outboxRetryAt, nextEntryAttemptAt].compactMap({ $0 }).min() {
                delay = min(remaining, max(0.05, next - time.now()))
            }
            do {
                try await time.sleep(delay)
            } catch {
                return try await status()
            }
            await pass(pull: current.unconfirmed > 0 || current.pending > 0, force: false)
        }
    }

    /// The outbox's state (see `AccountRepository.status`).
    public func status() async throws -> AccountSyncStatus {
        guard let session = await resolvedSession() ?? self.session else { return AccountSyncStatus(activity: .signedOut) }
        let summary: AccountOutboxSummary
        do {
            summary = try await storage.outboxSummary(accountID: session.accountID)
        } catch {
            throw MoviesError.storage(wrapping: error)
        }
        let activity: AccountSyncStatus.Activity
        if authBlocked {
            activity = .blockedOnAuth
        } else if isBackingOff {
            activity = .offline
        } else if passTask != nil {
            activity = .syncing
        } else {
            activity = .idle
        }
        let current = time.now()
        let next = [outboxRetryAt, nextEntryAttemptAt].compactMap { $0 }.filter { $0 > current }.min().map(wallClock)
        return AccountSyncStatus(
            activity: activity, accountID: session.accountID, username: session.username ?? summary.username,
            pending: summary.pending, unconfirmed: summary.delivered, rejected: summary.rejected,
            lastSuccessAt: lastSuccessAt ?? summary.lastSuccessAt, lastError: lastError ?? summary.lastError,
            pulledAt: summary.pulledAt, nextAttemptAt: next)
    }

    /// Forgets rejected entries (see `AccountRepository.dismissRejected`).
    public func dismissRejected() async throws -> Int {
        let account = try await knownAccount()
        do {
            return try await storage.dismissRejected(accountID: account.id)
        } catch {
            throw MoviesError.storage(wrapping: error)
        }
    }

    /// The signed-in account, or the last one (its lists stay readable after signing out).
    func knownAccount() async throws -> (id: Int, username: String?) {
        if let session = await resolvedSession() { return (session.accountID, session.username) }
        if let last = try? await storage.lastAccount() { return last }
        throw MoviesError.notSignedIn()
    }

    func storageSnapshot(_ accountID: Int) async throws -> AccountSnapshot {
        do {
            return try await storage.snapshot(accountID: accountID)
        } catch {
            throw MoviesError.storage(wrapping: error)
        }
    }
}
