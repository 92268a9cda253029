/// The outcome of one load run, printed as one `key=value` line (easy to parse from a script).
struct LoadResult: Sendable {
    let connections: Int
    let threads: Int
    let seconds: Double
    let latency: LatencySummary
    /// Size of a reply, in bytes.
    let replyBytes: Int

    /// Requests completed per second.
    var requestsPerSecond: Double { seconds > 0 ? Double(latency.count) / seconds : 0 }

    /// The result line.
    func line(label: String, extra: [(String, String)] = []) -> String {
        var fields: [(String, String)] = [
            ("connections", "\(connections)"), ("threads", "\(threads)"),
            ("requests", "\(latency.count)"), ("seconds", format(seconds, 2)),
            ("rps", format(requestsPerSecond, 0)), ("p50_ms", format(latency.p50, 3)),
            ("p99_ms", format(latency.p99, 3)), ("p999_ms", format(latency.p999, 3)),
            ("max_ms", format(latency.max, 3)), ("mean_ms", format(latency.mean, 3)),
            ("reply_bytes", "\(replyBytes)"),
        ]
        fields += extra
        return ([label] + fields.map { "\($0.0)=\($0.1)" }).joined(separator: " ")
    }
}

/// `value` with `digits` decimals.
func format(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    guard digits > 0 else { return String(Int(rounded)) }
    let whole = Int(rounded)
    let fraction = Int(((rounded - Double(whole)) * scale).rounded())
    let digitsText = String(fraction)
    return "\(whole)." + String(repeating: "0", count: max(0, digits - digitsText.count)) + digitsText
}
