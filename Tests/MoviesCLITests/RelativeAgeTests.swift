@testable import MoviesCLI
import Testing

@Suite struct RelativeAgeTests {
    @Test(arguments: [
        (0, "just now"), (59, "just now"), (60, "1 min ago"), (5 * 60 + 30, "5 min ago"),
        (3_599, "59 min ago"), (3_600, "1 h ago"), (2 * 3_600 + 59 * 60, "2 h ago"),
        (86_400, "1 day ago"), (3 * 86_400 + 10, "3 days ago"),
    ])
    func describesAges(seconds: Int, expected: String) {
        #expect(RelativeAge.describe(seconds: seconds) == expected)
    }

    @Test(arguments: [(45, "45 s"), (300, "5 min"), (7_800, "2 h 10 min"), (3_600, "1 h"), (90_000, "1 day 1 h"), (3 * 86_400, "3 days")])
    func describesDurations(seconds: Int, expected: String) {
        #expect(RelativeAge.duration(seconds: seconds) == expected)
    }
}
