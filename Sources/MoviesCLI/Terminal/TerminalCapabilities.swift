import Glibc

/// What the output terminal can do: whether it is a TTY, its width and whether to use colour.
struct TerminalCapabilities: Sendable, Hashable {
    /// Whether the output is a terminal (cursor movement allowed).
    var isTTY: Bool
    /// The width in columns.
    var width: Int
    /// Whether to use ANSI colours: only on a TTY and never when `NO_COLOR` is set and not empty.
    var usesColor: Bool
    /// The height in rows, when known: output taller than this cannot be redrawn in place.
    var height: Int?

    /// Creates capabilities explicitly (for tests and `--json`).
    init(isTTY: Bool, width: Int, usesColor: Bool, height: Int? = nil) {
        self.isTTY = isTTY
        self.width = max(width, 20)
        self.usesColor = usesColor && isTTY
        self.height = height
    }

    /// Detects the capabilities of `fileDescriptor`: `isatty(3)`, then the width from
    /// `ioctl(TIOCGWINSZ)`, else `$COLUMNS`, else 80; colour unless `NO_COLOR` or `TERM=dumb`.
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
        if width <= 0, let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { width = columns }
        if width <= 0 { width = 80 }
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
        return TerminalCapabilities(isTTY: tty, width: width, usesColor: !noColor, height: height)
    }
}
