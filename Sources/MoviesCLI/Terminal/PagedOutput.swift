/// Standard output on a terminal, with long output sent through the pager: a write that takes
/// more rows than the terminal has goes to `show` (the pager), anything shorter is written
/// directly (so a short answer, or a redraw in place, never waits on a pager). When the pager
/// cannot start, the text is written directly.
final class PagedOutput: TextSink {
    private let direct: any TextSink
    private let terminal: TerminalCapabilities
    private let show: (String) -> Bool

    /// Creates the sink over `direct` for `terminal` (whose height decides what is long);
    /// `show` runs the pager and says whether it could.
    init(direct: any TextSink, terminal: TerminalCapabilities, show: @escaping (String) -> Bool) {
        self.direct = direct
        self.terminal = terminal
        self.show = show
    }

    func write(_ text: String) {
        guard isLong(text), show(text) else {
            direct.write(text)
            return
        }
    }

    /// Whether `text` takes at least as many rows as the terminal has (`false` when its height
    /// is unknown).
    func isLong(_ text: String) -> Bool {
        guard let height = terminal.height else { return false }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return terminal.rows(lines) >= height
    }
}
