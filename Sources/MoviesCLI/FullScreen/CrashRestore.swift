import Glibc

/// Gives the terminal its mode back when the program dies of a fatal signal (a trap, an abort, a
/// bad access) while it is in raw mode on the alternate screen.
///
/// A signal handler may only call async-signal-safe functions (signal-safety(7)): `write(2)` and
/// `tcsetattr(3)` are, so the handler writes the leave sequence, restores the saved mode, then
/// re-raises the signal with its default action (the handler is installed with `SA_RESETHAND`),
/// so the exit status and any core dump are as they would have been. SIGKILL cannot be caught:
/// after `kill -9`, `reset` or `stty sane` is the user's way back.
enum CrashRestore {
    /// The signals that end the program with a fault.
    static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS]

    /// Saves what the handler restores and installs it for `fatalSignals`.
    static func install(mode: termios, input: Int32, output: Int32, leave: String) {
        let bytes = Array(leave.utf8.prefix(crashLeaveCapacity))
        crashMode.pointee = mode
        crashLeave.update(from: bytes, count: bytes.count)
        crashLeaveLength = bytes.count
        crashInput = input
        crashOutput = output
        crashArmed = 1
        for number in fatalSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = crashHandler
            action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND) | Int32(truncatingIfNeeded: SA_NODEFER)
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// Puts the default actions back (the terminal was restored normally).
    static func uninstall() {
        crashArmed = 0
        for number in fatalSignals { signal(number, SIG_DFL) }
    }
}

// What the crash handler needs, in memory it can read without allocating or locking: written
// only by `install` and `uninstall` (on the main thread, before and after the handlers may run).
private let crashLeaveCapacity = 96
nonisolated(unsafe) private let crashMode = UnsafeMutablePointer<termios>.allocate(capacity: 1)
nonisolated(unsafe) private let crashLeave = UnsafeMutablePointer<UInt8>.allocate(capacity: crashLeaveCapacity)
nonisolated(unsafe) private var crashLeaveLength = 0
nonisolated(unsafe) private var crashInput: Int32 = -1
nonisolated(unsafe) private var crashOutput: Int32 = -1
nonisolated(unsafe) private var crashArmed: sig_atomic_t = 0

private func crashHandler(_ number: Int32) {
    if crashArmed == 1 {
        crashArmed = 0
        _ = write(crashOutput, crashLeave, crashLeaveLength)
        _ = tcsetattr(crashInput, TCSADRAIN, crashMode)
    }
    raise(number)
}
