/// A line of text with a cursor, edited with readline's keys as fzf has them: characters go in at
/// the cursor, Backspace and Delete take one on either side, Ctrl-W the whitespace-separated word
/// before it, Alt-Backspace and Alt-D a word of letters and digits on either side, Ctrl-U and
/// Ctrl-K everything before or after it; the cursor moves by a character, a word or to either end.
///
/// The cursor counts characters (grapheme clusters) from the start, 0 to `text.count`.
struct EditableLine: Sendable, Hashable {
    /// The text.
    private(set) var text: String
    /// Where the cursor is: the number of characters before it.
    private(set) var cursor: Int

    /// `text`, with the cursor at its end.
    init(_ text: String = "") {
        self.text = text
        cursor = text.count
    }

    /// The text before the cursor.
    var beforeCursor: Substring { text.prefix(cursor) }

    /// Puts `character` in at the cursor, which moves past it.
    mutating func insert(_ character: Character) {
        text.insert(character, at: index(cursor))
        cursor += 1
    }

    /// Takes out the character before the cursor (Backspace); `false` when there is none.
    mutating func deleteBackward() -> Bool {
        guard cursor > 0 else { return false }
        remove(cursor - 1..<cursor)
        return true
    }

    /// Takes out the character under the cursor (Delete, Ctrl-D); `false` when there is none.
    mutating func deleteForward() -> Bool {
        guard cursor < text.count else { return false }
        remove(cursor..<cursor + 1)
        return true
    }

    /// Ctrl-W (unix-word-rubout): back over spaces, then over what is not a space.
    mutating func deleteWhitespaceWordBackward() -> Bool {
        let characters = Array(text)
        var start = cursor
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        return remove(start..<cursor)
    }

    /// Alt-Backspace (backward-kill-word): back to the start of the word of letters and digits.
    mutating func deleteWordBackward() -> Bool {
        remove(wordStart(before: cursor)..<cursor)
    }

    /// Alt-D (kill-word): on to the end of the word of letters and digits.
    mutating func deleteWordForward() -> Bool {
        remove(cursor..<wordEnd(after: cursor))
    }

    /// Ctrl-U (unix-line-discard): everything before the cursor.
    mutating func deleteToStart() -> Bool {
        remove(0..<cursor)
    }

    /// Ctrl-K (kill-line): everything from the cursor on.
    mutating func deleteToEnd() -> Bool {
        remove(cursor..<text.count)
    }

    /// Moves the cursor by `offset` characters, staying on the line; `false` when it did not move.
    mutating func move(by offset: Int) -> Bool {
        moveCursor(to: cursor + offset)
    }

    /// Moves the cursor to `position` (kept on the line); `false` when it did not move.
    mutating func moveCursor(to position: Int) -> Bool {
        let old = cursor
        cursor = max(0, min(position, text.count))
        return cursor != old
    }

    /// Alt-B, Ctrl-Left (backward-word): to the start of this or the previous word.
    mutating func moveWordBackward() -> Bool {
        moveCursor(to: wordStart(before: cursor))
    }

    /// Alt-F, Ctrl-Right (forward-word): to the end of this or the next word.
    mutating func moveWordForward() -> Bool {
        moveCursor(to: wordEnd(after: cursor))
    }

    private func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    private func wordStart(before position: Int) -> Int {
        let characters = Array(text)
        var start = position
        while start > 0, !isWordCharacter(characters[start - 1]) { start -= 1 }
        while start > 0, isWordCharacter(characters[start - 1]) { start -= 1 }
        return start
    }

    private func wordEnd(after position: Int) -> Int {
        let characters = Array(text)
        var end = position
        while end < characters.count, !isWordCharacter(characters[end]) { end += 1 }
        while end < characters.count, isWordCharacter(characters[end]) { end += 1 }
        return end
    }

    private func index(_ offset: Int) -> String.Index {
        text.index(text.startIndex, offsetBy: offset)
    }

    /// Takes out the characters in `range` (the cursor goes to its start); `false` when empty.
    @discardableResult
    private mutating func remove(_ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return false }
        text.removeSubrange(index(range.lowerBound)..<index(range.upperBound))
        cursor = range.lowerBound
        return true
    }
}
