import SystemSupport
import Testing

@Suite struct BackoffTests {
    @Test func doublesFromTheFirstPauseUpToTheCap() {
        let backoff = Backoff(initialSeconds: 5, maxSeconds: 60)
        #expect((1...7).map { backoff.seconds(afterFailures: $0) } == [5, 10, 20, 40, 60, 60, 60])
        #expect(backoff.seconds(afterFailures: 0) == 5)
        #expect(backoff.seconds(afterFailures: 10_000) == 60)
    }

    @Test func jitterSpreadsThePauseAroundItWithinTheCap() {
        let backoff = Backoff(initialSeconds: 10, maxSeconds: 60, jitterFraction: 0.2)
        #expect(backoff.seconds(afterFailures: 1, randomUnit: 0) == 8)
        #expect(backoff.seconds(afterFailures: 1, randomUnit: 0.5) == 10)
        #expect(abs(backoff.seconds(afterFailures: 1, randomUnit: 1) - 12) < 1e-9)
        #expect(backoff.seconds(afterFailures: 9, randomUnit: 1) == 60, "capped: at the cap the jitter only shortens")
        #expect(backoff.seconds(afterFailures: 9, randomUnit: 0) == 48)
    }
}
