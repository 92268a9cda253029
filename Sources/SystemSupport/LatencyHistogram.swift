/// A histogram of durations in fixed buckets, from 50 µs to 10 s, as a plain value: what a single
/// owner (the event loop) counts without a lock or an atomic, and what every histogram is read as.
///
/// The buckets are Prometheus's, cumulative when read (``cumulativeCounts``): the bucket of bound
/// `le` counts every duration up to and including `le`; the last bucket (`+Inf`) counts them all.
/// Stored per bucket (not cumulative) in a fixed array, so recording is one scan and one increment.
/// See https://prometheus.io/docs/concepts/metric_types/#histogram.
public struct LatencyHistogram: Sendable {
    /// The upper bounds of the finite buckets in nanoseconds: 50 µs to 10 s in steps of
    /// 1, 2.5 and 5 (17 bounds; an 18th bucket, `+Inf`, holds what is longer).
    public static let boundsNanoseconds: [UInt64] = [
        50_000, 100_000, 250_000, 500_000,
        1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000, 50_000_000, 100_000_000, 250_000_000, 500_000_000,
        1_000_000_000, 2_500_000_000, 5_000_000_000, 10_000_000_000,
    ]

    /// The number of buckets, `+Inf` included.
    public static let bucketCount = 18

    /// Durations recorded per bucket (not cumulative), the last one `+Inf`.
    private var buckets = InlineArray<18, UInt64>(repeating: 0)
    /// The sum of every duration recorded, in nanoseconds (wraps after about 584 years' worth).
    public private(set) var sumNanoseconds: UInt64 = 0

    /// An empty histogram.
    public init() {}

    /// Counts one duration of `nanoseconds`.
    @inline(__always)
    public mutating func record(nanoseconds: UInt64) {
        buckets[Self.bucket(of: nanoseconds)] &+= 1
        sumNanoseconds &+= nanoseconds
    }

    /// The bucket a duration of `nanoseconds` falls in: the first whose bound is at least it.
    @inline(__always)
    public static func bucket(of nanoseconds: UInt64) -> Int {
        var index = 0
        while index < boundsNanoseconds.count, nanoseconds > boundsNanoseconds[index] { index += 1 }
        return index
    }

    /// How many durations were recorded.
    public var count: UInt64 {
        var total: UInt64 = 0
        for index in buckets.indices { total &+= buckets[index] }
        return total
    }

    /// The count of bucket `index` alone (not cumulative).
    public func count(inBucket index: Int) -> UInt64 {
        buckets[index]
    }

    /// The counts as Prometheus reads them: each bucket's count with every shorter bucket's added,
    /// the last (`+Inf`) equal to ``count``.
    public var cumulativeCounts: [UInt64] {
        var running: UInt64 = 0
        return buckets.indices.map { index in
            running &+= buckets[index]
            return running
        }
    }

    /// The sum in seconds.
    public var sumSeconds: Double {
        Double(sumNanoseconds) / 1_000_000_000
    }

    /// Whether nothing was recorded.
    public var isEmpty: Bool { count == 0 }

    /// Adds what `other` recorded (histograms of several owners, e.g. event loops, summed when read).
    public mutating func merge(_ other: LatencyHistogram) {
        for index in buckets.indices { buckets[index] &+= other.buckets[index] }
        sumNanoseconds &+= other.sumNanoseconds
    }

    /// Adds `count` durations to bucket `index` and `nanoseconds` to the sum (for counts kept
    /// elsewhere, e.g. in atomics, read into a value).
    public mutating func add(_ count: UInt64, toBucket index: Int, nanoseconds: UInt64 = 0) {
        buckets[index] &+= count
        sumNanoseconds &+= nanoseconds
    }

    /// The bucket bounds as Prometheus's `le` label values, in seconds (`+Inf` last): `5e-05`,
    /// `0.0001`, …, `10.0`, written without exponent: `0.00005`, `0.0001`, …, `10`.
    public static let boundLabels: [String] = boundsNanoseconds.map(secondsText) + ["+Inf"]

    /// `nanoseconds` as a decimal number of seconds without an exponent or trailing zeros.
    static func secondsText(_ nanoseconds: UInt64) -> String {
        let whole = nanoseconds / 1_000_000_000
        var fraction = String(nanoseconds % 1_000_000_000)
        guard fraction != "0" else { return String(whole) }
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }
}
