@testable import MoviesCLI
import Testing

@Suite struct TextWrappingTests {
    @Test func wrapsAtSpaces() {
        #expect(TextWrapping.wrap("a hacker learns the truth", width: 10) == ["a hacker", "learns the", "truth"])
    }

    @Test func breaksWordsWiderThanTheLine() {
        let lines = TextWrapping.wrap("千と千尋の神隠し", width: 6)
        #expect(lines == ["千と千", "尋の神", "隠し"])
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 6 })
    }
}
