import MoviesDomain

/// Whether TMDB is answering the account's writes: an edit waits for TMDB only then.
extension AccountSync {
    /// `remote.send`, noting (and waking waiting edits) when it passes `notAnsweringAfterSeconds`.
    func timedWrite(_ edit: AccountEdit, session: AccountSession) async throws -> Int {
        let remote = remote
        do {
            return try await SlowCallMark.run(after: settings.notAnsweringAfterSeconds, sleep: time.sleep, onSlow: { await self.writeTurnedSlow() }) {
                try await remote.send(edit, session: session)
            }
        } catch is CancellationError {
            throw MoviesError(code: .cancelled, message: "The request to TMDB was cancelled.")
        }
    }

    /// The write in flight passed `notAnsweringAfterSeconds`: edits waiting for it return now.
    func writeTurnedSlow() {
        writeIsSlow = true
        progress.signal()
    }

    /// Whether an edit may wait for TMDB now: TMDB answered the last calls (as far as the shared
    /// health knows) and no write has been waiting on it past `notAnsweringAfterSeconds`.
    func tmdbIsAnswering() async -> Bool {
        let healthy = await health?.isAnswering() ?? true
        return healthy && !writeIsSlow
    }
}
