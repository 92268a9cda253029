import FoundationEssentials
import MoviesDomain

/// Pulling the account's lists: TMDB's truth, which confirms delivered edits.
extension AccountSync {
    /// Pulls the three lists and replaces the local copy (not before the pull's own retry time,
    /// unless `force`). The delivered entries it shows are confirmed; those whose grace is over
    /// (on the monotonic clock) give way to TMDB's lists.
    func pullOnce(force: Bool) async {
        guard let session = await resolvedSession(), !authBlocked else { return }
        if !force, let retry = nextPullAt, retry > time.now(), pullFailures > 0 { return }
        let started = now()
        let startedAt = time.now()
        do {
            let before = try await storage.snapshot(accountID: session.accountID)
            rebase(before.entries)
            let expired = Set(deliveredAt.filter { startedAt - $0.value > settings.unconfirmedGraceSeconds }.keys)
            var lists: [AccountList: [AccountItem]] = [:]
            for list in AccountList.allCases { lists[list] = try await pullList(list, session: session) }
            // TMDB answered (`movies sync` is an explicit command): the cache may ask it again too.
            await health?.recordSuccess()
            let settled = try await storage.replaceLists(lists, accountID: session.accountID, pulledAt: started, expired: expired)
            try? await storage.recordSync(accountID: session.accountID, username: session.username, succeededAt: now(), error: nil)
            lastSuccessAt = now()
            lastError = nil
            pullFailures = 0
            nextPullAt = time.now() + settings.pullIntervalSeconds
            let counts = AccountList.allCases.map { "\(lists[$0]?.count ?? 0) \($0.rawValue)" }.joined(separator: ", ")
            events.record(DataEvent(.info, "account.pulled", "account lists pulled: \(counts); \(settled) edit(s) confirmed"))
        } catch {
            let message = scrubbed(error, session: session)
            switch AccountFailure.classify(error) {
            case .auth:
                blockOnAuth(message)
            case .cancelled:
                break
            case .retry(_, let after):
                pullFailed(message, retryAfter: after)
            case .alreadyApplied, .reject:
                pullFailed(message, retryAfter: nil)
            }
        }
    }

    /// A failed pull: tried again after a back-off that grows with each failure in a row. It
    /// pauses the pulls only: the lists failing to load says nothing of the writes.
    func pullFailed(_ message: String, retryAfter: Int?) {
        note(error: message)
        pullFailures += 1
        let retryAt = time.now() + backoff(attempt: pullFailures, retryAfter: retryAfter)
        nextPullAt = retryAt
        due(at: retryAt)
    }

    func pullList(_ list: AccountList, session: AccountSession) async throws -> [AccountItem] {
        var items: [AccountItem] = []
        var seen = Set<Int>()
        var page = 1
        var lastPage = 1
        repeat {
            let answer = try await remote.listPage(list, session: session, page: page)
            for item in answer.items where seen.insert(item.movieID).inserted { items.append(item) }
            lastPage = min(settings.maxListPages, max(1, answer.totalPages))
            page += 1
        } while page <= lastPage
        return items
    }
}
