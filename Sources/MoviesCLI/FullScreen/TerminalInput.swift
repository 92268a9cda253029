/// What the terminal sent: a key, the mouse, or the answer to a query the program made.
enum TerminalInput: Sendable, Hashable {
    /// A key press.
    case key(Key)
    /// A mouse press or wheel turn (SGR mouse mode).
    case mouse(MouseEvent)
    /// An answer to a query (`GraphicsProbe`).
    case reply(TerminalReply)
}

/// An answer the terminal sent to one of the program's queries.
enum TerminalReply: Sendable, Hashable {
    /// Primary device attributes (`CSI ? … c`): every terminal answers `CSI c`, so this ends a
    /// probe (the answers to the queries sent before it came first).
    case deviceAttributes
    /// A kitty graphics protocol answer (`APC G … ST`); `ok` when the terminal accepted the query.
    case kittyGraphics(ok: Bool)
    /// The terminal's name and version (XTVERSION: `DCS > | text ST`), e.g. "iTerm2 3.5.0".
    case terminalVersion(String)
}
