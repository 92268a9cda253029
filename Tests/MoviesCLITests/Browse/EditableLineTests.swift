@testable import MoviesCLI
import Testing

/// The query line's readline editing, as fzf has it (issue 46: the query could not be edited).
@Suite struct EditableLineTests {
    /// `text` with the cursor `fromEnd` characters before its end.
    static func line(_ text: String, cursorFromEnd: Int = 0) -> EditableLine {
        var line = EditableLine(text)
        _ = line.move(by: -cursorFromEnd)
        return line
    }

    @Test func charactersGoInAtTheCursor() {
        var line = Self.line("the matix", cursorFromEnd: 2)
        line.insert("r")
        #expect(line.text == "the matrix")
        #expect(line.cursor == 8)
        #expect(line.beforeCursor == "the matr")
    }

    @Test func backspaceAndDeleteTakeACharacterOnEitherSide() {
        var line = Self.line("blade", cursorFromEnd: 2)
        let changed1 = line.deleteBackward()
        #expect(changed1)
        #expect(line.text == "blde" && line.cursor == 2)
        let changed2 = line.deleteForward()
        #expect(changed2)
        #expect(line.text == "ble" && line.cursor == 2)
        var start = Self.line("x", cursorFromEnd: 1)
        let changed3 = start.deleteBackward()
        #expect(!changed3, "nothing before the cursor")
        var end = Self.line("x")
        let changed4 = end.deleteForward()
        #expect(!changed4, "nothing under the cursor")
    }

    @Test func ctrlWTakesTheWordBeforeTheCursorUpToASpace() {
        var line = Self.line("blade run-ner  ")
        let changed5 = line.deleteWhitespaceWordBackward()
        #expect(changed5)
        #expect(line.text == "blade ")
        var middle = Self.line("the dark knight", cursorFromEnd: 7)
        let changed6 = middle.deleteWhitespaceWordBackward()
        #expect(changed6)
        #expect(middle.text == "the  knight" && middle.cursor == 4)
    }

    @Test func altBackspaceAndAltDTakeAWordOfLettersAndDigits() {
        var line = Self.line("run-ner")
        let changed7 = line.deleteWordBackward()
        #expect(changed7)
        #expect(line.text == "run-")
        var forward = Self.line("blade runner 2049", cursorFromEnd: 11)
        let changed8 = forward.deleteWordForward()
        #expect(changed8)
        #expect(forward.text == "blade  2049" && forward.cursor == 6)
    }

    @Test func ctrlUAndCtrlKTakeEverythingBeforeOrAfterTheCursor() {
        var line = Self.line("blade runner", cursorFromEnd: 6)
        let changed9 = line.deleteToEnd()
        #expect(changed9)
        #expect(line.text == "blade " && line.cursor == 6)
        var other = Self.line("blade runner", cursorFromEnd: 6)
        let changed10 = other.deleteToStart()
        #expect(changed10)
        #expect(other.text == "runner" && other.cursor == 0)
    }

    @Test func theCursorMovesByCharactersWordsAndToEitherEnd() {
        var line = Self.line("blade runner 2049")
        let changed11 = line.moveWordBackward()
        #expect(changed11)
        #expect(line.cursor == 13)
        let changed12 = line.moveWordBackward()
        #expect(changed12)
        #expect(line.cursor == 6)
        let changed13 = line.moveWordForward()
        #expect(changed13)
        #expect(line.cursor == 12)
        let changed14 = line.moveCursor(to: 0)
        #expect(changed14)
        let changed15 = line.move(by: -1)
        #expect(!changed15, "already at the start")
        let changed16 = line.move(by: 2)
        #expect(changed16 && line.cursor == 2)
        let changed17 = line.moveCursor(to: 99)
        #expect(changed17 && line.cursor == 17, "kept on the line")
    }

    @Test func theCursorCountsCharactersNotBytes() {
        var line = Self.line("amélie", cursorFromEnd: 3)
        line.insert("é")
        #expect(line.text == "améélie")
        let changed18 = line.deleteBackward()
        #expect(changed18)
        #expect(line.text == "amélie" && line.cursor == 3)
    }
}
