import Foundation
import Networking
import Testing

/// The one Retry-After rule: how the field reads, and the pause it makes with a caller's cap and
/// back-off. Every caller's pause is this function (`RetryAfterUsersTests` checks those callers).
@Suite struct RetryAfterTests {
    static let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT

    @Test(arguments: [
        ("3", 3), ("0", 0), (" 5 ", 5), ("1.2", 2), ("120", 120),
        ("-1", nil), ("", nil), ("soon", nil), ("inf", nil), ("nan", nil), ("99999999999", nil),
        ("Wed, 21 Oct 2015 07:28:10 GMT", 10),  // 10 s from now
        ("Wed, 21 Oct 2015 07:29:00 GMT", 60),
        ("Wed, 21 Oct 2015 07:27:00 GMT", 0),  // in the past: at once
        ("Wednesday, 21-Oct-15 07:28:10 GMT", nil),  // RFC 850, obsolete: not read
    ] as [(String, Int?)])
    func theFieldReads(value: String, expected: Int?) {
        #expect(RetryAfter.seconds(value, now: Self.now) == expected)
        #expect(HTTPResponse(status: 429, headers: ["retry-after": value]).retryAfterSeconds(now: Self.now) == expected)
    }

    @Test(arguments: [
        (nil, 30, 4, 4),  // no Retry-After: the caller's back-off
        (7, 30, 4, 7),  // TMDB's word, even above the back-off…
        (1, 30, 4, 1),  // …and below it
        (0, 30, 4, 0),
        (31, 30, 4, 30),  // never above the cap
        (nil, 3, 8, 3),  // the back-off too
        (nil, 30, -1, 0),  // never below 0
        (5, -1, 4, 0),
    ] as [(Int?, Double, Double, Double)])
    func thePause(retryAfter: Int?, cap: Double, backoff: Double, expected: Double) {
        var backoffs = 0
        let pause = RetryAfter.pause(retryAfter: retryAfter, cap: cap) {
            backoffs += 1
            return backoff
        }
        #expect(pause == expected)
        #expect(backoffs == (retryAfter == nil ? 1 : 0), "a caller's back-off moves only when it is used")
    }

    @Test func theNetworkServicesPauseIsTheRule() {
        let policy = RetryPolicy(baseDelaySeconds: 1, maxDelaySeconds: 4, maxRetryAfterSeconds: 30, random: { 0.5 })
        for (field, expected) in [("7", 7.0), ("31", 30), ("", 1)] {
            let response = HTTPResponse(status: 429, headers: field.isEmpty ? [:] : ["Retry-After": field])
            #expect(policy.pause(after: response, attempt: 1) == expected)
        }
        // A 503's Retry-After is read too: the retry waits for it (within the deadline).
        #expect(policy.delayBeforeRetry(after: HTTPResponse(status: 503, headers: ["Retry-After": "3"]), attempt: 1) == 3)
    }
}
