@testable import MoviesCLI
import Testing

@Suite struct DurationParserTests {
    @Test(arguments: [("30d", 2_592_000), ("6h", 21_600), ("90m", 5_400), ("45s", 45), ("1h30m", 5_400), ("120", 120), ("2w", 1_209_600), ("0s", 0)])
    func parsesDurations(text: String, seconds: Int) {
        #expect(DurationParser.seconds(text) == seconds)
    }

    @Test(arguments: ["", "d", "6x", "h6", "-5m", "1.5h", "6h30", "99999999999999999999d"])
    func rejectsNonDurations(text: String) {
        #expect(DurationParser.seconds(text) == nil)
    }
}
