@testable import MoviesCLI
import Testing

@Suite struct TextFittingTests {
    @Test func shortTextIsKept() {
        #expect(TextFitting.truncate("Heat", to: 10) == "Heat")
    }

    @Test func longTextEndsWithEllipsis() {
        let cut = TextFitting.truncate("The Lord of the Rings", to: 10)
        #expect(cut == "The Lord …")
        #expect(DisplayWidth.of(cut) == 10)
    }

    @Test func wideCharactersAreNotSplit() {
        let cut = TextFitting.truncate("千と千尋の神隠し", to: 6)
        #expect(cut == "千と…")
        #expect(DisplayWidth.of(cut) == 5)
        #expect(DisplayWidth.of(TextFitting.fit("千と千尋の神隠し", to: 6)) == 6)
    }

    @Test func combiningMarksStayWithTheirBase() {
        let cut = TextFitting.truncate("Ame\u{0301}lie Poulain", to: 4)
        #expect(cut == "Ame\u{0301}…")
    }

    @Test func fitPadsLeftOrRight() {
        #expect(TextFitting.fit("7.5", to: 5, alignRight: true) == "  7.5")
        #expect(TextFitting.fit("기생충", to: 8) == "기생충  ")
    }

    @Test func controlCharactersFromTheRemoteAreNeutralised() {
        #expect(TextFitting.truncate("Evil\u{1B}[2J\u{9B}title\nnext", to: 40) == "Evil [2J title next")
        #expect(!TextWrapping.wrap("a\u{1B}]0;x\u{07}b", width: 20).joined().contains("\u{1B}"))
    }
}
