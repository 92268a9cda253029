import MoviesDomain

/// The account's session: loaded once from its store, refused sessions block the outbox.
extension AccountSync {
    /// Whether a session is kept for this account (loaded once from the store; TMDB is not asked).
    func hasSession() -> Bool {
        loadSession()
        return session != nil
    }

    /// Loads the session from the store the first time.
    private func loadSession() {
        guard !sessionLoaded else { return }
        sessionLoaded = true
        do {
            session = try sessions.load()
        } catch {
            note(error: "the saved TMDB session could not be read: \(error)")
        }
    }

    /// The session, loaded once from the store; one without an account id gets it from the state
    /// database, or TMDB.
    func resolvedSession() async -> AccountSession? {
        loadSession()
        guard var current = session else { return nil }
        if current.accountID == 0 {
            // A session from the credential, without its account: only TMDB can say whose it is
            // (never guessed from the last account used here, which may be someone else's).
            do {
                let details = try await remote.accountDetails(sessionID: current.sessionID)
                current.accountID = details.id
                current.username = details.username
            } catch {
                if AccountFailure.classify(error) == .auth { blockOnAuth(scrubbed(error, session: current)) }
                return nil
            }
            guard session?.sessionID == current.sessionID else { return session }
            try? await storage.recordSync(accountID: current.accountID, username: current.username, succeededAt: nil, error: nil)
            session = current
        }
        return current
    }

    func requireSession() async throws -> AccountSession {
        guard let session = await resolvedSession() else {
            if self.session != nil { throw MoviesError(code: .remoteUnavailable, message: "the TMDB session has no account yet and TMDB cannot be reached to look it up; try again when online") }
            throw MoviesError.notSignedIn()
        }
        return session
    }

    func blockOnAuth(_ message: String) {
        if !authBlocked {
            events.record(DataEvent(.warning, "account.auth", "TMDB refused the account session (\(message)); edits are kept until you sign in again: movies account login"))
        }
        authBlocked = true
        lastError = "TMDB refused the session (\(message)); sign in again: movies account login"
        authBlockedReason = lastError
    }
}
