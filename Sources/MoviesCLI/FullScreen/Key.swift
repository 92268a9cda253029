/// One key press, decoded from the bytes a terminal sends (see `KeyDecoder`).
enum Key: Sendable, Hashable {
    /// A printable character (any script), typed as text.
    case character(Character)
    /// A letter typed with Control held (`control("c")` is Ctrl-C), other than the ones named below.
    case control(Character)
    /// Return or Enter.
    case enter
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
    /// Backspace (DEL or Ctrl-H).
    case backspace
    /// The Delete key.
    case delete
    /// Escape on its own (not the start of a sequence).
    case escape
    /// The arrow keys.
    case up, down, left, right
    /// Home and End.
    case home, end
    /// Page Up and Page Down.
    case pageUp, pageDown
    /// A function key, F1 to F12.
    case function(Int)
    /// A character typed with Alt (Meta) held: the terminal sends Escape and the character at once
    /// (`ESC b` for Alt-B).
    case alt(Character)
    /// Backspace with Alt held (`ESC DEL`): readline's backward-kill-word.
    case altBackspace
    /// An arrow with Control or Alt held (`CSI 1;5D`): a word left or right.
    case wordLeft, wordRight
}
