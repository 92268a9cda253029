import Networking
import Varlink

/// The families of TMDB: its requests, their latency, its rate limit, and its state.
extension DaemonMetrics {
    static let remoteFamilies: [DaemonMetricFamily] = [
        .labelled(
            "tmdb_requests_total", .counter,
            "Requests sent to TMDB (each attempt, retries included), by endpoint (search, movie, configuration, image, changes, movie_changes, account) and status class (2xx, 3xx, 4xx, 5xx, or failed: no answer)"
        ) { reading in
            (reading.requests?.attempts ?? [:]).sorted { ($0.key.kind, $0.key.outcome.rawValue) < ($1.key.kind, $1.key.outcome.rawValue) }.map { key, count in
                (fields: [("endpoint", key.kind), ("status", key.outcome.rawValue)], value: MetricValue.unsigned(count))
            }
        },
        .single("tmdb_rate_limited_total", .counter, "TMDB's answers with HTTP 429 (rate limited): every caller pauses for its Retry-After") { reading in
            .unsigned(reading.requests?.rateLimited ?? 0)
        },
        .labelled(
            "tmdb_rate_limit_wait_seconds_total", .counter,
            "Seconds requests waited for a token of the rate limiter ([Remote] RequestsPerSecond=, and the pauses after a 429), by priority (interactive: a user's call; background: refreshes, the outbox)"
        ) { reading in
            RateLimitLane.Priority.allCases.map { priority in
                let nanoseconds = reading.requests?.waitedNanoseconds[priority] ?? 0
                return (fields: [("priority", "\(priority)")], value: MetricValue.double(Double(nanoseconds) / 1e9))
            }
        },
        .single("remote_state", .string, "TMDB's state as the daemon judges it from its requests: unknown, online, offline, auth_rejected or rate_limited") { reading in
            .string(reading.remote.state.rawValue)
        },
        .single("remote_state_seconds", .gauge, "Seconds TMDB has been in its current state (absent before the first request)") { reading in
            reading.remote.since.map { .unsigned(UInt64(max(0, reading.now.timeIntervalSince($0)))) }
        },
        .single("remote_consecutive_failures", .gauge, "Requests to TMDB that failed in a row (0 once one succeeds)") { reading in
            .unsigned(UInt64(max(0, reading.remote.consecutiveFailures)))
        },
    ]
    + DaemonMetricFamily.histogram(
        "tmdb_request_duration_seconds", "Time of each request to TMDB, from sending it to its whole answer (or its failure), by endpoint"
    ) { reading in
        (reading.requests?.latency ?? [:]).sorted { $0.key < $1.key }.map { (fields: [("endpoint", $0.key)], histogram: $0.value) }
    }
}
