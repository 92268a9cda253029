import Glibc

/// What the output terminal can do: whether it is a TTY, its width and whether to use colour.
///
/// Output fitted to a width is for terminals only: when standard output is a pipe or a file,
/// views print every field whole, one record a line, and `width` only wraps help text.
struct TerminalCapabilities: Sendable, Hashable {
    /// The narrowest width honoured; a smaller `--width` or `COLUMNS` is raised to it.
    static let minimumWidth = 20
    /// The width assumed when nothing says otherwise.
    static let defaultWidth = 80

    /// Whether the output is a terminal (cursor movement allowed).
    var isTTY: Bool
    /// The width in columns.
    var width: Int
    /// Whether to use ANSI colours (SGR only, never cursor movement off a TTY): detected as on a
    /// TTY unless `NO_COLOR` is set and not empty; `--color` decides otherwise (`ColorChoice`).
    var usesColor: Bool
    /// The height in rows, when known: output taller than this cannot be redrawn in place.
    var height: Int?

    /// Creates capabilities explicitly (for tests and `--json`).
    init(isTTY: Bool, width: Int, usesColor: Bool, height: Int? = nil) {
        self.isTTY = isTTY
        self.width = max(width, Self.minimumWidth)
        self.usesColor = usesColor
        self.height = height
    }

    /// Detects the capabilities of `fileDescriptor`: `isatty(3)`; the width from `$COLUMNS` when
    /// it is a positive number (it overrides the terminal's own, as for ls(1)), else from
    /// `ioctl(TIOCGWINSZ)`, else 80; colour unless `NO_COLOR` or `TERM=dumb`.
    static func detect(fileDescriptor: Int32, environment: [String: String]) -> TerminalCapabilities {
        let tty = isatty(fileDescriptor) == 1
        var width = 0
        var height: Int?
        if tty {
            var size = winsize()
            if ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0 {
                width = Int(size.ws_col)
                height = size.ws_row > 0 ? Int(size.ws_row) : nil
            }
        }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { width = columns }
        if width <= 0 { width = defaultWidth }
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
        return TerminalCapabilities(isTTY: tty, width: width, usesColor: tty && !noColor, height: height)
    }

    /// `text` as lines: wrapped at spaces to the width on a terminal, never cut; one whole line
    /// elsewhere. `wholeURLs`: an address wider than the terminal stands whole on its own line.
    func wrapped(_ text: String, wholeURLs: Bool = false) -> [String] {
        guard isTTY else { return [TextFitting.printable(text)] }
        let lines = TextWrapping.wrap(text, width: width, wholeURLs: wholeURLs)
        return lines.isEmpty ? [""] : lines
    }

    /// `text` as the lines of a column starting `indent` columns in (after a label the caller puts
    /// before the first line): wrapped to the columns left on a terminal, the lines after the first
    /// indented; one whole line elsewhere. When the column would be narrower than `minimum`, the
    /// text wraps at two columns in instead. `wholeURLs`: an address wider than the column is
    /// not broken but put whole on a line of its own from the left edge (the first line then
    /// empty, when it starts the text), wider than the terminal if it must be.
    func column(_ text: String, at indent: Int, minimum: Int = 20, wholeURLs: Bool = false) -> [String] {
        guard isTTY else { return [TextFitting.printable(text)] }
        let start = width - indent >= minimum ? indent : 2
        let lines = TextWrapping.wrap(text, width: width - start, wholeURLs: wholeURLs)
        guard let first = lines.first else { return [""] }
        let pad = String(repeating: " ", count: start)
        let tooWide = { (line: String) in wholeURLs && DisplayWidth.of(line) > width - start }
        return (tooWide(first) ? ["", first] : [first]) + lines.dropFirst().map { tooWide($0) ? $0 : pad + $0 }
    }

    /// How many terminal rows `lines` take once printed, counting the ones the terminal wraps.
    func rows(_ lines: [String]) -> Int {
        lines.reduce(0) { total, line in
            let columns = DisplayWidth.ofStyled(line)
            return total + max(1, (columns + width - 1) / width)
        }
    }
}
