import MoviesData
import Varlink

/// The families of the background work: watchlist refreshes, the change feed, the accounts' outbox.
extension DaemonMetrics {
    static let backgroundFamilies: [DaemonMetricFamily] = [
        .labelled("refresh_runs_total", .counter, "Watchlist refresh runs (one per owner of the lists refreshed), by outcome: completed or cancelled") { reading in
            [(fields: [("outcome", "completed")], value: .unsigned(reading.refresh.completed)),
             (fields: [("outcome", "cancelled")], value: .unsigned(reading.refresh.cancelled))]
        },
        .single("refresh_duration_seconds_sum", .counter, "Duration of the completed refresh runs: the seconds added up (the sum)") { reading in
            .double(reading.refresh.durationSeconds)
        },
        .single("refresh_duration_seconds_count", .counter, "Duration of the completed refresh runs: how many (the count)") { reading in
            .unsigned(reading.refresh.completed)
        },
        .labelled(
            "refresh_entries_total", .counter,
            "Entries of the completed refresh runs, by result: fetched (from TMDB), current (the cached copy was), failed, skipped (past a query's last page)"
        ) { reading in
            let results: [(String, UInt64)] = [
                ("fetched", reading.refresh.fetched), ("current", reading.refresh.current),
                ("failed", reading.refresh.failed), ("skipped", reading.refresh.skipped),
            ]
            return results.map { (fields: [("result", $0.0)], value: MetricValue.unsigned($0.1)) }
        },
        .labelled(
            "change_feed_runs_total", .counter,
            "Runs of TMDB's change feed ([Refresh] ChangeFeed=), by outcome: applied, full_revalidation (the cursor was too old), failed"
        ) { reading in
            guard let runs = reading.changeFeed else { return [] }
            return ChangeFeedSync.RunOutcome.allCases.map { (fields: [("outcome", $0.rawValue)], value: MetricValue.unsigned(runs[$0] ?? 0)) }
        },
        .labelled(
            "outbox_entries", .gauge,
            "TMDB account edits in the outboxes (every owner's, counted together), by state: pending (not on TMDB yet), delivered (on TMDB, unconfirmed until its lists show it), rejected (refused by TMDB)"
        ) { reading in
            guard let outbox = reading.outbox else { return [] }
            return ["pending", "delivered", "rejected"].map { (fields: [("state", $0)], value: MetricValue.unsigned(UInt64(max(0, outbox[$0] ?? 0)))) }
        },
        .single("outbox_delivered_total", .counter, "TMDB account edits TMDB confirmed it took (every owner's)") { .unsigned($0.outboxDelivered) },
        .single("outbox_rejected_total", .counter, "TMDB account edits TMDB refused for good, undone here (every owner's)") { .unsigned($0.outboxRejected) },
    ]
}
