import Synchronization

/// A fixed number of counters, each an atomic integer updated with relaxed ordering: counts made
/// on whatever thread a task runs on (requests to TMDB, refreshes, storage faults), summed by
/// nobody and read at any time. Relaxed ordering is enough: each counter is a number on its own,
/// read for a report, never used to order other memory.
///
/// Not for the event loop's cached path, which counts in plain integers of its own
/// (`LatencyHistogram`, read by asking the loop).
public final class AtomicCounters: Sendable {
    /// The counters, allocated once and never moved (`Atomic` must not be copied).
    private nonisolated(unsafe) let storage: UnsafeMutablePointer<Atomic<UInt64>>
    /// How many counters there are.
    public let count: Int

    /// `count` counters at zero.
    public init(count: Int) {
        self.count = max(0, count)
        storage = .allocate(capacity: self.count)
        for index in 0..<self.count { (storage + index).initialize(to: Atomic(0)) }
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// Adds `value` to counter `index` (ignored for an index out of range).
    @inline(__always)
    public func add(_ value: UInt64 = 1, at index: Int) {
        guard index >= 0, index < count else { return }
        storage[index].add(value, ordering: .relaxed)
    }

    /// Counter `index` now (0 for an index out of range).
    public func value(at index: Int) -> UInt64 {
        guard index >= 0, index < count else { return 0 }
        return storage[index].load(ordering: .relaxed)
    }
}

/// A ``LatencyHistogram`` several threads record into, in atomics: the buckets, then the sum.
/// Read as a ``LatencyHistogram`` (``snapshot``); a snapshot taken while a duration is being
/// recorded may count it in its bucket and not yet in the sum, which a scrape tolerates.
public final class AtomicLatencyHistogram: Sendable {
    private let counters = AtomicCounters(count: LatencyHistogram.bucketCount + 1)

    /// An empty histogram.
    public init() {}

    /// Counts one duration of `nanoseconds`.
    public func record(nanoseconds: UInt64) {
        counters.add(1, at: LatencyHistogram.bucket(of: nanoseconds))
        counters.add(nanoseconds, at: LatencyHistogram.bucketCount)
    }

    /// What was recorded so far.
    public var snapshot: LatencyHistogram {
        var histogram = LatencyHistogram()
        for index in 0..<LatencyHistogram.bucketCount {
            histogram.add(counters.value(at: index), toBucket: index)
        }
        histogram.add(0, toBucket: 0, nanoseconds: counters.value(at: LatencyHistogram.bucketCount))
        return histogram
    }
}
