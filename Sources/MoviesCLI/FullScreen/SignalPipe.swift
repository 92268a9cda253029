import Glibc

/// Turns the signals a full-screen program must answer into bytes on a pipe its event loop polls
/// (the self-pipe trick): the handler only writes the signal's number, which is
/// async-signal-safe, and the loop does the work (redraw, suspend, restore and exit).
///
/// One instance at a time: the handlers write to the pipe of the one that is installed.
final class SignalPipe {
    /// The signals delivered through the pipe: a resize, the ends (TERM, INT, HUP, QUIT), and
    /// suspension (TSTP from `kill -TSTP` or a job-control shell; CONT when resumed).
    static let signals: [Int32] = [SIGWINCH, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT]

    private let pipe: WakePipe

    /// The end the event loop polls and reads.
    var readEnd: Int32 { pipe.readEnd }

    /// Creates the pipe and installs the handlers; `nil` when no pipe could be made.
    init?() {
        guard let pipe = WakePipe() else { return nil }
        self.pipe = pipe
        signalPipeWriteEnd = pipe.writeEnd
        for number in Self.signals { Self.install(number) }
    }

    /// Installs the handler for `number` (again after a suspension, which used the default).
    static func install(_ number: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = signalPipeHandler
        action.sa_flags = Int32(SA_RESTART)
        sigemptyset(&action.sa_mask)
        sigaction(number, &action, nil)
    }

    /// The signals received since the last call, oldest first (each once per delivery).
    func take() -> [Int32] {
        var numbers: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            numbers += buffer.prefix(count).map { Int32($0) }
        }
        return numbers
    }

    /// Puts the default actions back (the pipe closes with this object).
    func uninstall() {
        for number in Self.signals { signal(number, SIG_DFL) }
        signalPipeWriteEnd = -1
    }
}

/// Set while a `SignalPipe` is installed; read by the handler.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

private func signalPipeHandler(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    if signalPipeWriteEnd >= 0 { _ = write(signalPipeWriteEnd, &byte, 1) }
    errno = saved
}
