@testable import MoviesCLI
import Testing

@Suite struct DisplayWidthTests {
    @Test func asciiIsOneColumnEach() {
        #expect(DisplayWidth.of("The Matrix") == 10)
    }

    @Test func cjkIsTwoColumnsEach() {
        #expect(DisplayWidth.of("千と千尋の神隠し") == 16)
        #expect(DisplayWidth.of("기생충") == 6)
        #expect(DisplayWidth.of("ＡＢ") == 4)  // fullwidth Latin
    }

    @Test func combiningMarksTakeNoColumn() {
        let decomposed = "Ame\u{0301}lie"  // e + COMBINING ACUTE ACCENT
        #expect(decomposed.count == 6)
        #expect(DisplayWidth.of(decomposed) == 6)
        #expect(DisplayWidth.of("Amélie") == 6)
        #expect(DisplayWidth.of("\u{200B}") == 0)  // zero width space (format)
    }

    @Test func controlCharactersTakeNoColumn() {
        #expect(DisplayWidth.of("a\u{1B}b") == 2)
    }

    @Test func emojiIsTwoColumns() {
        #expect(DisplayWidth.of("🎬") == 2)
    }
}
