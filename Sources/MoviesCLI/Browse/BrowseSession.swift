import Glibc
import SystemSupport

/// One `movies browse` session on the process's terminal: raw mode on the alternate screen, one
/// event loop (poll(2) on the keyboard and one `LoopWaker`, woken by signals and by the calls'
/// answers, with a timeout for the next deadline), the model's effects carried out, and the terminal restored however it
/// ends: a key, SIGTERM/SIGINT/SIGHUP, or (as far as a handler can) a crash. Ctrl-Z and SIGTSTP
/// give the terminal back until SIGCONT; SIGWINCH redraws at the new size. The terminal reports
/// the mouse (SGR mode 1006) while the session has it, unless `--no-mouse`.
final class BrowseSession {
    /// What the session needs from outside.
    struct Configuration {
        /// The query to start with ("" for the recent queries).
        var query: String
        /// The watchlist `w` adds to.
        var watchlistName: String
        /// Whether to use styles and colours (`NO_COLOR`, `--color`).
        var usesColor: Bool
        /// Opens a connection to the daemon (one per call thread).
        var connect: @Sendable () -> any MoviesClient
        /// The policy, language and region of the daemon's searches (`movies.conf`).
        var searchDefaults = SearchDefaults()
        /// Whether the terminal is asked to report the mouse (`--no-mouse`: not).
        var reportsMouse = true
        /// Opens an address in the browser; returns why it could not (`LinkOpener`).
        var openLink: @Sendable (String) -> String? = { LinkOpener.open($0, browser: nil, quiet: true) }
        /// The monotonic clock, in nanoseconds.
        var clock: () -> UInt64 = MonotonicClock.now
        /// The terminal: read keys from `input`, draw on `output`.
        var input: Int32 = STDIN_FILENO
        var output: Int32 = STDOUT_FILENO
    }

    /// Why the session could not start.
    struct StartError: Error, Sendable, Hashable {
        /// What failed.
        let message: String
    }

    private let configuration: Configuration
    private let renderer: ScreenRenderer
    private var decoder = KeyDecoder()
    private var lastInputAt: UInt64 = 0
    /// The exit status a signal chose (SIGTERM, SIGHUP), over the key's.
    private var pendingExit: ExitCode?

    /// Creates a session; `run()` starts it.
    init(_ configuration: Configuration) {
        self.configuration = configuration
        let output = configuration.output
        renderer = ScreenRenderer { text in FileDescriptorSink.writeAll(Array(text.utf8), to: output) }
    }

    /// The signals the loop answers: a resize, the ends (TERM, INT, HUP, QUIT), and suspension
    /// (TSTP from `kill -TSTP` or a job-control shell; CONT when resumed).
    static let signals: [Int32] = [SIGWINCH, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT]

    /// Runs the session until it ends; returns the exit status.
    func run() throws(StartError) -> ExitCode {
        guard let mode = TerminalMode(input: configuration.input, output: configuration.output, reportsMouse: configuration.reportsMouse) else {
            throw StartError(message: "cannot read the terminal's mode (tcgetattr failed)")
        }
        guard let wake = LoopWaker() else { throw StartError(message: "cannot create a pipe") }
        guard let signals = SignalRelay(Self.signals, waking: wake) else { throw StartError(message: "cannot handle signals (sigaction failed)") }
        let calls = BrowseCalls(connect: configuration.connect, openLink: configuration.openLink, wake: wake)
        mode.enter()
        defer {
            mode.leave()
            signals.uninstall()
        }
        write(GraphicsProbe.query)
        let size = terminalSize()
        var (model, effects) = BrowseModel.start(
            query: configuration.query, watchlistName: configuration.watchlistName,
            width: size.width, height: size.height, now: configuration.clock(), searchDefaults: configuration.searchDefaults)
        while true {
            for effect in effects {
                switch effect {
                case .quit(let code):
                    calls.finishSaves(within: 1)
                    return pendingExit ?? code
                case .suspend: suspend(mode)
                case .redraw: renderer.invalidate()
                case .copyToClipboard(let text):
                    // OSC 52: the terminal puts the text on the clipboard (where it lets programs).
                    write("\u{1B}]52;c;" + Base64Encoder.encode(Array(text.utf8)) + "\u{07}")
                default: calls.perform(effect)
                }
            }
            renderer.draw(BrowseScreenView.frame(model.state, usesColor: configuration.usesColor))
            var events = wait(signals: signals, wake: wake, deadline: model.nextDeadline)
            events += calls.take()
            events.append(.tick)
            effects = []
            for event in events {
                if case .resized = event { renderer.invalidate() }
                effects += model.handle(event, now: configuration.clock())
            }
        }
    }

    /// Waits for input, a signal, a call's answer or `deadline`; returns the events read.
    private func wait(signals: SignalRelay, wake: LoopWaker, deadline: UInt64?) -> [BrowseEvent] {
        let now = configuration.clock()
        var timeout: Int32 = -1
        if let deadline { timeout = Int32(clamping: deadline > now ? (deadline - now + 999_999) / 1_000_000 : 0) }
        if decoder.hasPending {
            let escapeDue = lastInputAt + UInt64(KeyDecoder.escapeDelayMilliseconds) * 1_000_000
            let wait = Int32(clamping: escapeDue > now ? (escapeDue - now + 999_999) / 1_000_000 : 0)
            timeout = timeout < 0 ? wait : min(timeout, wait)
        }
        var descriptors = [
            pollfd(fd: configuration.input, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.fileDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
        var events: [BrowseEvent] = []
        if ready > 0, descriptors[1].revents != 0 {
            wake.drain()
            for number in signals.take() { events += signalEvents(number) }
        }
        if ready > 0, descriptors[0].revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(configuration.input, $0.baseAddress, $0.count) }
            if count > 0 {
                lastInputAt = configuration.clock()
                events += decoder.feed(Array(buffer.prefix(count))).map(Self.event)
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                events.append(.key(.control("c")))  // the terminal is gone (hang-up): end as on Ctrl-C
            }
        } else if ready > 0, descriptors[0].revents & Int16(POLLHUP | POLLERR) != 0 {
            events.append(.key(.control("c")))
        }
        if decoder.hasPending, configuration.clock() >= lastInputAt + UInt64(KeyDecoder.escapeDelayMilliseconds) * 1_000_000 {
            events += decoder.flushEscape().map(Self.event)
        }
        return events
    }

    private static func event(_ input: TerminalInput) -> BrowseEvent {
        switch input {
        case .key(let key): .key(key)
        case .mouse(let mouse): .mouse(mouse)
        case .reply(let reply): .terminalReply(reply)
        }
    }

    /// The events a signal stands for (the ends are keys with the same effect).
    private func signalEvents(_ number: Int32) -> [BrowseEvent] {
        switch number {
        case SIGWINCH, SIGCONT:
            let size = terminalSize()
            return [.resized(width: size.width, height: size.height)]
        case SIGTSTP:
            return [.key(.control("z"))]
        case SIGINT, SIGQUIT:
            return [.key(.control("c"))]
        default:
            pendingExit = .terminated
            return [.key(.control("c"))]
        }
    }

    /// Gives the terminal back and stops (as for Ctrl-Z in a shell); on SIGCONT takes it again.
    private func suspend(_ mode: TerminalMode) {
        mode.leave()
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        // Running again (SIGCONT): the shell may have changed the terminal's mode meanwhile.
        SignalRelay.install(SIGTSTP)
        mode.enter()
        renderer.invalidate()
    }

    private func terminalSize() -> (width: Int, height: Int) {
        var size = winsize()
        guard ioctl(configuration.output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    private func write(_ text: String) {
        FileDescriptorSink.writeAll(Array(text.utf8), to: configuration.output)
    }
}
