import Glibc

/// The terminal as a full-screen program uses it: raw input (no echo, no line editing, no signals
/// from keys: Ctrl-C and Ctrl-Z arrive as keys), the alternate screen, no autowrap, a hidden
/// cursor; and the way back to exactly the mode it found (`stty -g` reads the same after).
///
/// The mode found is also kept where a fatal signal's handler can reach it (`CrashRestore`), so a
/// crash leaves the terminal usable as far as a signal handler can make it.
final class TerminalMode {
    /// What entering the full screen writes: the alternate screen (xterm 1049: saves the cursor
    /// and the main screen), no autowrap (DECAWM off, so the last column never scrolls), the cursor
    /// hidden.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?7l\u{1B}[?25l\u{1B}[H\u{1B}[2J"
    /// What leaving writes: mouse reports off (`MouseEvent`), the end of any synchronized update,
    /// autowrap and the cursor back, the main screen back, colours reset.
    static let leaveSequence = MouseEvent.disableSequence + "\u{1B}[?2026l\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

    private let input: Int32
    private let output: Int32
    private let original: termios
    /// Whether the terminal reports the mouse while the full screen is on.
    private let reportsMouse: Bool
    private(set) var isActive = false

    /// Reads the mode of `input` (the terminal); `nil` when it is not a terminal. `reportsMouse`:
    /// the terminal is asked to report clicks and the wheel (SGR mouse mode) while in the full screen.
    init?(input: Int32, output: Int32, reportsMouse: Bool = false) {
        var mode = termios()
        guard tcgetattr(input, &mode) == 0 else { return nil }
        self.input = input
        self.output = output
        self.reportsMouse = reportsMouse
        original = mode
    }

    /// Enters raw mode and the full screen (again after a suspension).
    func enter() {
        var raw = original
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        raw.c_cflag |= tcflag_t(CS8)
        // VMIN 1, VTIME 0: read(2) returns what is there; the program polls before reading.
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        CrashRestore.install(mode: original, input: input, output: output, leave: Self.leaveSequence)
        _ = tcsetattr(input, TCSADRAIN, &raw)
        FileDescriptorSink.writeAll(Array((Self.enterSequence + (reportsMouse ? MouseEvent.enableSequence : "")).utf8), to: output)
        isActive = true
    }

    /// Leaves the full screen and restores the mode found, once per `enter()`.
    func leave() {
        guard isActive else { return }
        isActive = false
        FileDescriptorSink.writeAll(Array(Self.leaveSequence.utf8), to: output)
        var mode = original
        _ = tcsetattr(input, TCSADRAIN, &mode)
        CrashRestore.uninstall()
    }

    deinit { leave() }
}
