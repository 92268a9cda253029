/// Editing the query in query mode, with readline's keys as fzf has them: a change of the text
/// searches again (`queryChanged`), a move of the cursor does not.
extension BrowseModel {
    /// What `key` does to the query, `nil` when it does not edit it.
    mutating func editQuery(_ key: Key, now: UInt64) -> [BrowseEffect]? {
        var line = state.line
        let changed: Bool
        switch key {
        case .character(let character):
            line.insert(character)
            changed = true
        case .backspace: changed = line.deleteBackward()
        case .delete, .control("d"): changed = line.deleteForward()
        case .control("w"): changed = line.deleteWhitespaceWordBackward()
        case .altBackspace: changed = line.deleteWordBackward()
        case .alt("d"): changed = line.deleteWordForward()
        case .control("u"): changed = line.deleteToStart()
        case .control("k"): changed = line.deleteToEnd()
        case .left, .control("b"), .right, .control("f"), .home, .control("a"), .end, .control("e"),
             .wordLeft, .alt("b"), .wordRight, .alt("f"):
            moveCursor(key, in: &line)
            state.line = line
            return []
        default:
            return nil
        }
        guard changed else { return [] }
        state.line = line
        return queryChanged(now: now)
    }

    private func moveCursor(_ key: Key, in line: inout EditableLine) {
        switch key {
        case .left, .control("b"): _ = line.move(by: -1)
        case .right, .control("f"): _ = line.move(by: 1)
        case .home, .control("a"): _ = line.moveCursor(to: 0)
        case .end, .control("e"): _ = line.moveCursor(to: line.text.count)
        case .wordLeft, .alt("b"): _ = line.moveWordBackward()
        case .wordRight, .alt("f"): _ = line.moveWordForward()
        default: break
        }
    }
}
