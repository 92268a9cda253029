import Varlink

/// The families of the Varlink server's calls and connections, and of the service's answers.
extension DaemonMetrics {
    static let callFamilies: [DaemonMetricFamily] = [
        .labelled(
            "calls_total", .counter,
            "Varlink calls that ended, by method (fully qualified; `other` for methods not served) and outcome (`ok`, the error's name, or `disconnected`)"
        ) { reading in
            reading.server.methods.flatMap { method in
                method.outcomes.sorted { $0.key < $1.key }.map { outcome, count in
                    (fields: [("method", method.method), ("outcome", outcome)], value: MetricValue.unsigned(count))
                }
            }
        },
        .labelled(
            "answers_total", .counter,
            "Answers sent (a streaming call's cached answer and its fresh one count as two), by method and origin: memory (on the event loop), cache, revalidated, network, local_index, or offline_fallback (cached data because TMDB failed or was late)"
        ) { reading in
            var counts: [String: [AnswerTally.Origin: UInt64]] = [:]
            for method in reading.server.methods where method.answeredAtOnce > 0 {
                counts[method.method, default: [:]][.memory, default: 0] += method.answeredAtOnce
            }
            for (key, count) in reading.answers { counts[key.method, default: [:]][key.origin, default: 0] += count }
            return counts.keys.sorted().flatMap { method in
                AnswerTally.Origin.allCases.compactMap { origin in
                    counts[method]?[origin].map { (fields: [("method", method), ("origin", origin.rawValue)], value: MetricValue.unsigned($0)) }
                }
            }
        },
        .single("connections", .gauge, "Client connections open now") { .unsigned(UInt64($0.server.openConnections)) },
        .single("connections_accepted_total", .counter, "Client connections accepted") { .unsigned($0.server.acceptedConnections) },
        .labelled(
            "connections_refused_total", .counter,
            "Client connections refused, by reason: server_full, reserved (only root's reserve was left), per_user (the user already held [Daemon] MaxConnectionsPerUser=: per-uid throttling), unnamed_peer"
        ) { reading in
            VarlinkServerMetrics.Refusal.allCases.map { reason in
                (fields: [("reason", reason.rawValue)], value: MetricValue.unsigned(reading.server.refusedConnections[reason] ?? 0))
            }
        },
    ]
    + DaemonMetricFamily.histogram(
        "call_first_reply_seconds",
        "Time from a call's message read to its first reply queued, by method (the only reply of a call without more)"
    ) { reading in
        reading.server.methods.map { (fields: [("method", $0.method)], histogram: $0.firstReply) }
    }
    + DaemonMetricFamily.histogram("call_duration_seconds", "Time from a call's message read to its end, by method") { reading in
        reading.server.methods.map { (fields: [("method", $0.method)], histogram: $0.duration) }
    }
}
