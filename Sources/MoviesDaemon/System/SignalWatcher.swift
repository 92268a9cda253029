import Dispatch
import Glibc
import Synchronization
import SystemSupport

/// Delivers SIGTERM, SIGINT and SIGHUP as an asynchronous stream instead of killing the process.
///
/// The signals are relayed (`SignalRelay`: a `sigaction(2)` handler that records the signal and
/// wakes a `LoopWaker`, all async-signal-safe); a dispatch read source on the waker turns them
/// into stream elements. Unlike `SIG_IGN` plus a dispatch signal source, this sees every
/// process-directed signal on Linux: the kernel delivers it to any thread that does not block it
/// (libdispatch's worker threads block all signals), and an ignored signal would be discarded
/// before a dispatch signal source could see it. SIGTERM and SIGINT mean "drain and exit 0";
/// SIGHUP may reopen logs or be ignored. SIGPIPE is ignored.
///
/// Create one watcher per process: a new watcher takes the signals over from an earlier one.
public struct SignalWatcher: Sendable {
    /// The signals received, in order.
    public let signals: AsyncStream<Int32>

    /// The signals that ask the daemon to stop.
    public static let shutdownSignals: Set<Int32> = [SIGTERM, SIGINT]

    /// Starts watching `signalNumbers` (by default SIGTERM, SIGINT and SIGHUP) and ignores SIGPIPE, so a
    /// client that goes away yields `EPIPE` instead of killing the daemon.
    /// - Throws: ``StartupError`` when the waker or a handler cannot be set up.
    public init(watching signalNumbers: [Int32] = [SIGTERM, SIGINT, SIGHUP]) throws(StartupError) {
        Self.ignoreBrokenPipe()
        guard let waker = LoopWaker() else { throw Self.failure(SystemCallError("pipe")) }
        guard let relay = SignalRelay(signalNumbers, waking: waker) else { throw Self.failure(SystemCallError("sigaction")) }
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(16))
        let source = DispatchSource.makeReadSource(fileDescriptor: waker.fileDescriptor, queue: DispatchQueue(label: "moviesd.signals"))
        source.setEventHandler {
            waker.drain()
            for number in relay.take() { continuation.yield(number) }
        }
        // The source reads the waker's descriptor until it is cancelled: both live until then.
        source.setCancelHandler { withExtendedLifetime((waker, relay)) {} }
        source.resume()
        let watched = WatchedReadSource(source)
        continuation.onTermination = { _ in watched.cancel() }
        self.signals = stream
    }

    /// Sets SIGPIPE to `SIG_IGN`.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    private static func failure(_ error: SystemCallError) -> StartupError {
        StartupError("moviesd: cannot watch signals: \(error)", exitCode: StartupError.systemExitCode)
    }
}

/// Owns the dispatch read source for as long as the stream lives, and cancels it when the stream ends.
private final class WatchedReadSource: Sendable {
    private let source: Mutex<(any DispatchSourceRead)?>

    init(_ source: sending any DispatchSourceRead) {
        self.source = Mutex(source)
    }

    func cancel() {
        source.withLock { source in
            source?.cancel()
            source = nil
        }
    }
}
