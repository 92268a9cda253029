import Testing
import SystemSupport

/// The fixed buckets, what Prometheus reads of them, and the atomic variant.
@Suite struct LatencyHistogramTests {
    @Test func theBucketsGoFrom50MicrosecondsTo10SecondsAndThenInfinity() {
        #expect(LatencyHistogram.boundsNanoseconds.first == 50_000)
        #expect(LatencyHistogram.boundsNanoseconds.last == 10_000_000_000)
        #expect(LatencyHistogram.boundsNanoseconds == LatencyHistogram.boundsNanoseconds.sorted())
        #expect(LatencyHistogram.bucketCount == LatencyHistogram.boundsNanoseconds.count + 1)
        #expect(LatencyHistogram.boundLabels.first == "0.00005")
        #expect(LatencyHistogram.boundLabels.dropLast().last == "10")
        #expect(LatencyHistogram.boundLabels.last == "+Inf")
        #expect(LatencyHistogram.boundLabels.contains("0.0025"))
    }

    /// Prometheus's `le` is "less than or equal": a duration on a bound is in that bound's bucket.
    @Test(arguments: [
        (UInt64(0), 0), (50_000, 0), (50_001, 1), (100_000, 1), (999_999, 4), (1_000_000, 4), (1_000_001, 5),
        (10_000_000_000, 16), (10_000_000_001, 17), (UInt64.max, 17),
    ] as [(UInt64, Int)])
    func aDurationFallsInTheFirstBucketWhoseBoundIsAtLeastIt(nanoseconds: UInt64, bucket: Int) {
        #expect(LatencyHistogram.bucket(of: nanoseconds) == bucket)
    }

    @Test func countsAreCumulativeWhenReadAndTheSumIsInSeconds() {
        var histogram = LatencyHistogram()
        #expect(histogram.isEmpty)
        for nanoseconds: UInt64 in [10_000, 70_000, 70_000, 3_000_000, 20_000_000_000] { histogram.record(nanoseconds: nanoseconds) }
        #expect(histogram.count == 5)
        #expect(histogram.count(inBucket: 1) == 2)
        let cumulative = histogram.cumulativeCounts
        #expect(cumulative.count == LatencyHistogram.bucketCount)
        #expect(cumulative[0] == 1)
        #expect(cumulative[1] == 3)
        #expect(cumulative[5] == 3)
        #expect(cumulative[6] == 4)
        #expect(cumulative[16] == 4)
        #expect(cumulative[17] == 5)
        #expect(histogram.sumNanoseconds == 20_003_150_000)
        #expect(abs(histogram.sumSeconds - 20.00315) < 1e-9)
    }

    @Test func histogramsOfSeveralOwnersAddUp() {
        var first = LatencyHistogram()
        var second = LatencyHistogram()
        first.record(nanoseconds: 60_000)
        second.record(nanoseconds: 60_000)
        second.record(nanoseconds: 2_000_000_000)
        first.merge(second)
        #expect(first.count == 3)
        #expect(first.count(inBucket: 1) == 2)
        #expect(first.sumNanoseconds == 2_000_120_000)
    }

    @Test func atomicCountersAddUpWhatManyTasksCount() async {
        let counters = AtomicCounters(count: 3)
        let histogram = AtomicLatencyHistogram()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<1_000 {
                        counters.add(at: 1)
                        histogram.record(nanoseconds: 200_000)
                    }
                }
            }
        }
        #expect(counters.value(at: 0) == 0)
        #expect(counters.value(at: 1) == 8_000)
        // Out of range: ignored, and read as 0.
        counters.add(at: 7)
        #expect(counters.value(at: 7) == 0)
        let snapshot = histogram.snapshot
        #expect(snapshot.count == 8_000)
        #expect(snapshot.count(inBucket: 2) == 8_000)
        #expect(snapshot.sumNanoseconds == 8_000 * 200_000)
    }
}
