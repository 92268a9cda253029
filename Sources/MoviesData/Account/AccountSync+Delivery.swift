import FoundationEssentials
import MoviesDomain

/// Sending the outbox: which entry goes next, what TMDB's answer means for the schedule.
extension AccountSync {
    /// What became of one entry's write.
    enum Delivery { case sent, rejected, waitsAlone, stop }

    /// Sends the due entries, one at a time: the new edits whose callers wait first (`urgent`),
    /// then the rest oldest first. Nothing is sent while the outbox backs off; after its pause,
    /// the first entry sent is the probe, and a remote-wide failure stops the pass at once.
    func drainOnce() async {
        guard let session = await resolvedSession(), !authBlocked else { return }
        if isBackingOff { return }
        let snapshot: AccountSnapshot
        do {
            snapshot = try await storage.snapshot(accountID: session.accountID)
        } catch {
            note(error: MoviesError.storage(wrapping: error).message)
            return
        }
        rebase(snapshot.entries)
        var queue = OutboxQueue(entries: snapshot.entries.filter { $0.state == .pending })
        nextEntryAttemptAt = nil
        var failures = 0
        while !Task.isCancelled, let entry = nextEntry(&queue) {
            inFlight = entry.id
            let delivery = await deliver(entry, session: session)
            inFlight = nil
            progress.signal()
            switch delivery {
            case .sent, .rejected:
                continue
            case .waitsAlone:
                queue.block(entry.edit.movieID)
                failures += 1
                if failures >= settings.entryFailuresPerPass {
                    outboxFailed("\(failures) edits failed in a row", retryAfter: nil)
                    return
                }
            case .stop:
                return
            }
        }
    }

    /// The next entry to send: a waiting caller's new edit (after the earlier entries of its movie),
    /// else the oldest due entry. Entries backing off alone hold back the later ones of their movie.
    private func nextEntry(_ queue: inout OutboxQueue) -> PendingEdit? {
        let current = time.now()
        while let first = urgent.first {
            let movie = first.edit.movieID
            if queue.isBlocked(movie) {
                // It waits behind an entry backing off alone: its caller is told "pending".
                urgent.removeFirst()
                continue
            }
            if let earlier = queue.earliest(ofMovie: movie, before: first.id) {
                let retry = entryRetryAt[earlier.id] ?? current
                if retry <= current {
                    queue.remove(earlier.id)
                    return earlier
                }
                queue.block(movie)
                nextEntryAttemptAt = min(nextEntryAttemptAt ?? retry, retry)
                continue
            }
            urgent.removeFirst()
            if queue.contains(first.id) {
                queue.remove(first.id)
                return first
            }
            // Enqueued after the snapshot was read: pending unless a newer edit replaced it, and
            // then that one follows (a set-state sent twice is harmless).
            if first.id > queue.newestID { return first }
        }
        while let entry = queue.popFirst() {
            let movie = entry.edit.movieID
            if queue.isBlocked(movie) { continue }
            if let retry = entryRetryAt[entry.id], retry > current {
                queue.block(movie)
                nextEntryAttemptAt = min(nextEntryAttemptAt ?? retry, retry)
                continue
            }
            return entry
        }
        return nil
    }

    /// Brings the in-memory schedule in line with the outbox: forgets entries that are gone, and
    /// re-bases what an earlier run stored on the wall clock. A stored retry time in the past, or
    /// more than the longest back-off ahead (the clock was wrong then, or is now), is due now; a
    /// delivery time in the future starts its grace now.
    func rebase(_ entries: [PendingEdit]) {
        let current = time.now()
        let wall = now()
        let ids = Set(entries.map(\.id))
        entryRetryAt = entryRetryAt.filter { ids.contains($0.key) }
        deliveredAt = deliveredAt.filter { ids.contains($0.key) }
        for entry in entries {
            switch entry.state {
            case .pending where entryRetryAt[entry.id] == nil:
                let remaining = entry.nextAttemptAt.map { $0.timeIntervalSince(wall) } ?? 0
                entryRetryAt[entry.id] = remaining > 0 && remaining <= settings.maxBackoffSeconds ? current + remaining : current
            case .delivered where deliveredAt[entry.id] == nil:
                let elapsed = (entry.settledAt ?? entry.createdAt).distance(to: wall)
                deliveredAt[entry.id] = current - max(0, elapsed)
            default:
                break
            }
        }
    }

    /// Sends one entry and records what TMDB said. A write is delivered only when TMDB's answer
    /// confirms it (`AccountRemote.send`); one answered without a confirmation stays pending (sent
    /// again later: a set-state, harmless) and the lists are pulled to show TMDB's state.
    func deliver(_ entry: PendingEdit, session: AccountSession) async -> Delivery {
        do {
            _ = try await timedWrite(entry.edit, session: session)
            writeIsSlow = false
            await health?.recordSuccess()
            return await delivered(entry, session: session)
        } catch {
            writeIsSlow = false
            let message = scrubbed(error, session: session)
            if let failure = error as? MoviesError {
                // No answer at all says TMDB is unreachable, for the cache too; an answer, even a
                // refusal, says it is reachable.
                if failure.httpStatus == nil, failure.code == .remoteUnavailable { await health?.recordFailure(failure) }
                if let status = failure.httpStatus, (200...299).contains(status) { wantsPull = true }
            }
            switch AccountFailure.classify(error) {
            case .alreadyApplied:
                return await delivered(entry, session: session)
            case .retry(let isRemoteWide, let after):
                note(error: message)
                if isRemoteWide {
                    let retryAt = outboxFailed(message, retryAfter: after)
                    await recordFailure(entry, message, retryAt: retryAt)
                    return .stop
                }
                let retryAt = time.now() + backoff(attempt: entry.attempts + 1, retryAfter: after)
                entryRetryAt[entry.id] = retryAt
                nextEntryAttemptAt = min(nextEntryAttemptAt ?? retryAt, retryAt)
                due(at: retryAt)
                await recordFailure(entry, message, retryAt: retryAt)
                return .waitsAlone
            case .auth:
                blockOnAuth(message)
                return .stop
            case .reject:
                do {
                    try await storage.reject(entry.id, reason: message, at: now())
                    settings.metrics?.recordRejected()
                } catch {
                    note(error: MoviesError.storage(wrapping: error).message)
                }
                events.record(DataEvent(.warning, "account.rejected", "TMDB refused to \(entry.edit) (\(message)); the change was undone"))
                return .rejected
            case .cancelled:
                return .stop
            }
        }
    }

    /// TMDB cannot take writes now: the whole outbox pauses, doubling with each failure in a row
    /// (or as long as TMDB asked), and the callers waiting for their edits are answered "pending".
    /// Returns when the probe goes.
    @discardableResult
    func outboxFailed(_ message: String, retryAfter: Int?) -> Double {
        outboxFailures += 1
        let wait = backoff(attempt: outboxFailures, retryAfter: retryAfter)
        let retryAt = time.now() + wait
        outboxRetryAt = retryAt
        urgent.removeAll()
        due(at: retryAt)
        events.record(DataEvent(.notice, "account.offline", "TMDB could not take the account's edits (\(message)); waiting edits are tried again in \(Int(wait.rounded(.up))) s"))
        return retryAt
    }

    /// Counts the failed attempt and keeps why, with when it is tried again (for people).
    private func recordFailure(_ entry: PendingEdit, _ message: String, retryAt: Double) async {
        do {
            try await storage.markFailed(entry.id, error: message, nextAttemptAt: wallClock(retryAt))
        } catch {
            note(error: MoviesError.storage(wrapping: error).message)
        }
    }

    func delivered(_ entry: PendingEdit, session: AccountSession) async -> Delivery {
        do {
            try await storage.markDelivered(entry.id, edit: entry.edit, accountID: session.accountID, at: now())
            settings.metrics?.recordDelivered()
        } catch {
            // TMDB has it; the entry stays pending and is sent again (a set-state: harmless).
            note(error: MoviesError.storage(wrapping: error).message)
            return .stop
        }
        deliveredAt[entry.id] = time.now()
        entryRetryAt[entry.id] = nil
        lastSuccessAt = now()
        lastError = nil
        wantsPull = true
        // TMDB takes writes again: the outbox's pause is over.
        outboxFailures = 0
        outboxRetryAt = nil
        return .sent
    }
}

/// The pending entries of one pass, oldest first, and the movies held back in it.
struct OutboxQueue {
    private var entries: [PendingEdit]
    private var blocked = Set<Int>()
    /// The newest entry the pass read.
    let newestID: Int64

    init(entries: [PendingEdit]) {
        self.entries = entries
        newestID = entries.map(\.id).max() ?? 0
    }

    mutating func popFirst() -> PendingEdit? {
        entries.isEmpty ? nil : entries.removeFirst()
    }

    func contains(_ id: Int64) -> Bool { entries.contains { $0.id == id } }

    mutating func remove(_ id: Int64) { entries.removeAll { $0.id == id } }

    /// The oldest entry of `movie` before entry `id`, if one is still to send.
    func earliest(ofMovie movie: Int, before id: Int64) -> PendingEdit? {
        entries.first { $0.edit.movieID == movie && $0.id < id }
    }

    mutating func block(_ movie: Int) { blocked.insert(movie) }

    func isBlocked(_ movie: Int) -> Bool { blocked.contains(movie) }
}
