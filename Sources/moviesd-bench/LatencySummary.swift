/// Percentiles of a set of latency samples (exact: the samples are sorted, not bucketed).
struct LatencySummary: Sendable {
    /// How many samples were summarized.
    let count: Int
    /// Median, in milliseconds.
    let p50: Double
    /// 99th percentile, in milliseconds.
    let p99: Double
    /// 99.9th percentile, in milliseconds.
    let p999: Double
    /// Largest sample, in milliseconds.
    let max: Double
    /// Arithmetic mean, in milliseconds.
    let mean: Double

    /// Summarizes `nanoseconds` (any order).
    init(nanoseconds samples: [UInt64]) {
        let sorted = samples.sorted()
        count = sorted.count
        func quantile(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
            return Double(sorted[Swift.min(Swift.max(rank, 0), sorted.count - 1)]) / 1_000_000
        }
        p50 = quantile(0.5)
        p99 = quantile(0.99)
        p999 = quantile(0.999)
        max = Double(sorted.last ?? 0) / 1_000_000
        mean = sorted.isEmpty ? 0 : Double(sorted.reduce(0, &+)) / Double(sorted.count) / 1_000_000
    }
}
