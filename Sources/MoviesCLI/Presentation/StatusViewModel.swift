import FoundationEssentials
import MoviesDomain

/// The daemon status screen: input `didLoad()`, outputs labelled lines (version, uptime, remote
/// state, cache, last refresh) and error.
final class StatusViewModel {
    private let client: any MoviesClient
    private let now: () -> Date

    /// Labelled status lines, in display order.
    private(set) var fields: [DetailField] = []
    /// The error that ended the load, if any.
    private(set) var error: ClientError?
    /// Called with the daemon reply's parameters as one line of JSON.
    var didReceiveReply: ((String) -> Void)?

    /// Creates the view model over `client`; `now` gives the time relative ages are measured from.
    init(client: any MoviesClient, now: @escaping () -> Date = { Date() }) {
        self.client = client
        self.now = now
    }

    /// Loads the daemon's status.
    func didLoad() {
        do {
            let reply = try client.status()
            didReceiveReply?(reply.json)
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
        switch remote.state {
        case .unknown: return "unknown (no request made yet)"
        case .online: return "online"
        case .offline: return "offline" + since + retry + reason
        case .authRejected: return "auth rejected" + since + reason + " — check the TMDB token"
        case .rateLimited: return "rate limited" + retry
        }
    }

    private func show(_ status: StatusReply) {
        let cache = status.cache
        fields = [
            DetailField(label: "Version", value: status.version),
            DetailField(label: "Uptime", value: RelativeAge.duration(seconds: status.uptimeSeconds)),
            DetailField(label: "Remote", value: remoteLine(status.remote)),
            DetailField(
                label: "Cache",
                value: "\(cache.entries) entries, \(ByteCount.describe(cache.bytes)) of \(ByteCount.describe(cache.byteBudget))"
                    + " (\(cache.staleEntries) stale, \(cache.pinnedEntries) pinned)"
            ),
            DetailField(label: "Last refresh", value: status.lastRefresh ?? "never"),
        ]
    }

    private func age(of date: Date) -> Int {
        Int(now().timeIntervalSince(date))
    }
}
