import Glibc
import Synchronization

/// Signals delivered to a loop instead of their default actions: the handler only records its
/// signal and wakes the loop's `LoopWaker` (both async-signal-safe), and the loop, woken, takes
/// the signals (`take()`) and does the work. `movies browse` relays resizes, suspension and the
/// ends; the daemon's `SignalWatcher` SIGTERM, SIGINT and SIGHUP. A signal sent again before the
/// loop looked is taken once.
///
/// One relay at a time per process: a new one takes the handlers over.
public final class SignalRelay: Sendable {
    /// The signals relayed.
    public let signals: [Int32]
    private let waker: LoopWaker

    /// Installs the handlers of `signals` (numbers below 64), each waking `waker`; `nil` (with
    /// `errno` set) when sigaction(2) refused one.
    public init?(_ signals: [Int32], waking waker: LoopWaker) {
        self.signals = signals
        self.waker = waker
        relayWakeDescriptor.store(waker.writeEnd, ordering: .sequentiallyConsistent)
        for number in signals where !Self.install(number) { return nil }
    }

    /// Installs the relay's handler for `number` (again after a suspension used the default
    /// action); `false` when sigaction(2) refused it.
    @discardableResult
    public static func install(_ number: Int32) -> Bool {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = relaySignal
        action.sa_flags = Int32(SA_RESTART)
        sigemptyset(&action.sa_mask)
        return sigaction(number, &action, nil) == 0
    }

    /// The signals received since the last call, each once, by number.
    public func take() -> [Int32] {
        let pending = relayedSignals.exchange(0, ordering: .acquiringAndReleasing)
        return (1..<64).filter { pending & (1 << $0) != 0 }.map(Int32.init)
    }

    /// Puts the default actions back.
    public func uninstall() {
        for number in signals { signal(number, SIG_DFL) }
    }

    deinit {
        // The waker's pipe closes after this: a handler must not write to it any more.
        _ = relayWakeDescriptor.compareExchange(expected: waker.writeEnd, desired: -1, ordering: .sequentiallyConsistent)
    }
}

/// The signals received and not taken yet, one bit each (read and written by the handler: an
/// atomic, as handlers may not take locks).
private let relayedSignals = Atomic<UInt64>(0)
/// The write end of the installed relay's waker.
private let relayWakeDescriptor = Atomic<Int32>(-1)

/// The handler: records the signal and wakes the loop, preserving `errno`.
private func relaySignal(_ number: Int32) {
    let saved = errno
    if (1..<64).contains(number) { relayedSignals.bitwiseOr(UInt64(1) << UInt64(number), ordering: .sequentiallyConsistent) }
    let descriptor = relayWakeDescriptor.load(ordering: .relaxed)
    var byte: UInt8 = 1
    if descriptor >= 0 { _ = write(descriptor, &byte, 1) }
    errno = saved
}
