import Varlink
import FoundationEssentials
import MoviesDomain
import MoviesWire

/// The daemon status screen: input `didLoad()`, outputs labelled lines (version, uptime, remote
/// state, cache, last refresh) and error.
final class StatusViewModel {
    private let client: any MoviesClient
    private let now: () -> Date

    /// Labelled status lines, in display order.
    private(set) var fields: [DetailField] = []
    /// The error that ended the load, if any.
    private(set) var error: ClientError?
    /// Called with the daemon reply's parameters and whether more replies follow (`--json`).
    var didReceiveReply: ((_ parameters: JSONValue, _ continues: Bool) -> Void)?

    /// Creates the view model over `client`; `now` gives the time relative ages are measured from.
    init(client: any MoviesClient, now: @escaping () -> Date = { Date() }) {
        self.client = client
        self.now = now
    }

    /// Loads the daemon's status.
    func didLoad() {
        do {
            let reply = try client.status()
            didReceiveReply?(reply.parameters, reply.continues)
            show(reply.value)
            error = nil
        } catch let failure {
            error = failure
        }
    }

    /// The remote state as a phrase: "online", "offline since 2026-11-22 01:00 UTC (2 h ago)", "auth rejected"...
    func remoteLine(_ remote: RemoteStatus) -> String {
        let since = remote.since.map { " since \(UTCTimestamp.describe($0)) (\(RelativeAge.describe(seconds: age(of: $0))))" } ?? ""
        let retry = remote.retryAt.map { ", retry in " + RelativeAge.duration(seconds: max(0, -age(of: $0))) } ?? ""
        let reason = remote.lastError.map { ": \($0)" } ?? ""
        if remote.credential == .missing { return "no credential configured, answering from the cache only (to use TMDB, set a token: moviesd(8))" }
        switch remote.state {
        case .unknown: return "unknown (no request made yet)"
        case .online: return "online" + sharedCacheClause(remote.sharedCache)
        case .offline: return "offline" + since + retry + reason
        case .authRejected:
            // The daemon's reason may already say to check the token: said once, with where it is.
            let remedy = "the TMDB token: /etc/moviesd/tmdb-token, or ~/.config/moviesd/tmdb-token for your own daemon (moviesd(8), CREDENTIALS)"
            if let told = reason.firstRange(of: "check the configured token") {
                return "auth rejected" + since + reason[..<told.lowerBound] + "check " + remedy
            }
            return "auth rejected" + since + reason + " — check " + remedy
        case .rateLimited: return "rate limited" + retry
        }
    }

    /// " through a shared cache (nginx): 80 of 100 answers from its cache, last HIT", or "".
    func sharedCacheClause(_ shared: SharedCacheStatus?) -> String {
        guard let shared else { return "" }
        let via = shared.via.map { " (\(TextFitting.printable($0)))" } ?? ""
        return " through a shared cache\(via): \(shared.hits) of \(shared.hits + shared.misses) answers from its cache, last \(TextFitting.printable(shared.lastStatus))"
    }

    private func show(_ status: StatusReply) {
        let cache = status.cache
        fields = [
            DetailField(label: "Version", value: status.version),
            DetailField(label: "Uptime", value: RelativeAge.duration(seconds: status.uptimeSeconds)),
            DetailField(label: "Remote", value: remoteLine(status.remote)),
            DetailField(
                label: "Cache",
                value: "\(cache.entries == 1 ? "1 entry" : "\(cache.entries) entries"), \(ByteCount.describe(cache.bytes)) of \(ByteCount.describe(cache.byteBudget))"
                    + " (\(cache.staleEntries) stale, \(cache.pinnedEntries) pinned\(cache.pinnedBytes.map { ", \(ByteCount.describe($0))" } ?? ""))"
            ),
            DetailField(label: "Last refresh", value: lastRefreshLine(status)),
        ]
        if let storage = status.storage {
            fields.insert(DetailField(label: "Storage", value: storageLine(storage)), at: 4)
        }
        if let refresh = status.refresh {
            fields.append(DetailField(label: "Refresh-ahead", value: schedulerLine(refresh)))
            if let feed = refresh.changeFeed {
                fields.append(DetailField(label: "Change feed", value: changeFeedLine(feed)))
            }
        }
        if let account = status.account {
            fields.append(DetailField(label: "Account sync", value: AccountSyncLine.describe(account, now: now())))
        }
        if let catalogue = status.catalogue {
            fields.append(DetailField(label: "Catalogue", value: catalogueLine(catalogue)))
        }
    }

    /// "TMDB's export of 2026-03-05, 1034467 titles, 81.5 MB, imported 2026-03-05 09:12 UTC (2 h
    /// ago)", or "not imported yet (movies catalogue update)".
    func catalogueLine(_ catalogue: CatalogueStatus) -> String {
        guard let date = catalogue.exportDate, let importedAt = catalogue.importedAt else {
            return "not imported yet (movies catalogue update)"
        }
        return "TMDB's export of \(date), \(catalogue.titles == 1 ? "1 title" : "\(catalogue.titles) titles"), \(ByteCount.describe(Int64(catalogue.bytesOnDisk))), "
            + "imported \(UTCTimestamp.describe(importedAt)) (\(RelativeAge.describe(seconds: age(of: importedAt))))"
    }

    /// "synced through 2026-11-25, last run 2026-11-25 10:00 UTC (2 h ago): 12 changed, 3 fetched
    /// again, 9,400 kept fresh, 5 requests", "failed at … : reason (still through 2026-11-24)" or
    /// "not run yet".
    func changeFeedLine(_ feed: ChangeFeedStatus) -> String {
        guard let last = feed.lastRunAt else { return "not run yet" }
        let when = "\(UTCTimestamp.describe(last)) (\(RelativeAge.describe(seconds: age(of: last))))"
        let through = feed.syncedThrough ?? "no day yet"
        switch feed.lastOutcome {
        case .failed?:
            return "failed at \(when): \(feed.lastError ?? "unknown error") (still synced through \(through))"
        case .fullRevalidation?:
            return "synced through \(through); last run \(when) could not bridge the gap: \(feed.refetched) pinned movie(s) fetched again, \(feed.requests) request(s)"
        case .ok?, nil:
            return "synced through \(through), last run \(when): \(feed.changedCached) changed, \(feed.refetched) fetched again, \(feed.validated) kept fresh, \(feed.requests) request(s)"
        }
    }

    /// "2026-11-22 01:00 UTC (2 min ago): 40 done, 2 failed — TMDB rejected the credential", or "never".
    func lastRefreshLine(_ status: StatusReply) -> String {
        guard let last = status.refresh?.last else { return status.lastRefresh ?? "never" }
        var line = "\(UTCTimestamp.describe(last.finishedAt)) (\(RelativeAge.describe(seconds: age(of: last.finishedAt)))): \(last.done) done"
        if last.failed > 0 { line += ", \(last.failed) failed" }
        if last.skipped > 0 { line += ", \(last.skipped) skipped" }
        if last.authRejected {
            line += " — TMDB rejected the credential"
        } else if let error = last.firstError {
            line += " — \(error)"
        }
        if let progress = status.refresh?.progress, status.refresh?.running == true {
            line += "; running now: \(progress.done + progress.failed + progress.skipped)/\(progress.total)"
        }
        return line
    }

    /// "ok", or "full since 2026-11-22 01:00 UTC (2 min ago): the disk holding moviesd's database is full; …".
    func storageLine(_ storage: StorageHealth) -> String {
        guard storage.state != .ok else { return "ok" }
        let since = storage.since.map { " since \(UTCTimestamp.describe($0)) (\(RelativeAge.describe(seconds: age(of: $0))))" } ?? ""
        return storage.state.rawValue + since + (storage.lastError.map { ": \($0)" } ?? "")
    }

    /// "idle, next run in 5 min", "backing off, next try in 40 s" or "disabled".
    func schedulerLine(_ refresh: RefreshStatus) -> String {
        let next = refresh.nextRunAt.map { RelativeAge.duration(seconds: max(0, -age(of: $0))) }
        switch refresh.scheduler {
        case .disabled: return "disabled"
        case .idle: return "idle" + (next.map { ", next run in \($0)" } ?? "")
        case .backingOff: return "backing off after remote failures" + (next.map { ", next try in \($0)" } ?? "")
        }
    }

    private func age(of date: Date) -> Int {
        Int(now().timeIntervalSince(date))
    }
}
