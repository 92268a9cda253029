/// Asks the terminal which image protocol it speaks, never guessing from `TERM` or other
/// variables (they lie over SSH and in tmux): a kitty graphics query (a 1×1 image that is only
/// checked, not shown), XTVERSION (the terminal's name: iTerm2 and WezTerm answer it), then
/// primary device attributes, which every terminal answers, and answers last.
///
/// The answers come through the key decoder (`TerminalReply`). When the device attributes
/// arrive, everything the terminal would say has been said; a terminal that says nothing in
/// `timeoutMilliseconds` is taken to have no image protocol.
struct GraphicsProbe: Sendable, Hashable {
    /// The bytes to write once, at start: kitty's query (id 31, RGB 1×1, `a=q`), XTVERSION, DA1.
    static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[>0q\u{1B}[c"
    /// How long to wait for the answers.
    static let timeoutMilliseconds: UInt64 = 500

    private var kittyAnswered = false
    private var version: String?

    /// What the probe has learnt: `nil` while waiting.
    private(set) var result: Result?

    /// What a finished probe learnt.
    enum Result: Sendable, Hashable {
        /// The terminal can draw images with this protocol.
        case supported(GraphicsProtocol)
        /// It answered, and has none; or it did not answer in time.
        case unsupported
    }

    /// A probe waiting for answers.
    init() {}

    /// Takes in one answer of the terminal.
    mutating func receive(_ reply: TerminalReply) {
        guard result == nil else { return }
        switch reply {
        case .kittyGraphics(let ok): kittyAnswered = kittyAnswered || ok
        case .terminalVersion(let text): version = text
        case .deviceAttributes:
            if kittyAnswered {
                result = .supported(.kitty)
            } else if let version, version.hasPrefix("iTerm2") || version.hasPrefix("WezTerm") {
                result = .supported(.iterm2)
            } else {
                result = .unsupported
            }
        }
    }

    /// Gives up waiting: no answer came in time.
    mutating func timedOut() {
        if result == nil { result = .unsupported }
    }
}
