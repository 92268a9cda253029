import Dispatch
import Glibc
import Synchronization

/// Delivers SIGTERM, SIGINT and SIGHUP as an asynchronous stream instead of killing the process.
///
/// Each watched signal gets a `sigaction(2)` handler that writes the signal number to a non-blocking
/// self-pipe (the only thing it does, and `write(2)` is async-signal-safe); a dispatch read source on
/// the pipe turns the bytes into stream elements. Unlike `SIG_IGN` plus a dispatch signal source, this
/// sees every process-directed signal on Linux: the kernel delivers it to any thread that does not
/// block it (libdispatch's worker threads block all signals), and an ignored signal would be discarded
/// before a dispatch signal source could see it. SIGTERM and SIGINT mean
/// "drain and exit 0"; SIGHUP may reopen logs or be ignored. SIGPIPE is ignored.
///
/// Create one watcher per process: a new watcher takes the signals over from an earlier one.
public struct SignalWatcher: Sendable {
    /// The signals received, in order.
    public let signals: AsyncStream<Int32>

    /// The signals that ask the daemon to stop.
    public static let shutdownSignals: Set<Int32> = [SIGTERM, SIGINT]

    /// Starts watching `signalNumbers` (by default SIGTERM, SIGINT and SIGHUP) and ignores SIGPIPE, so a
    /// client that goes away yields `EPIPE` instead of killing the daemon.
    /// - Throws: ``StartupError`` when the self-pipe or a handler cannot be set up.
    public init(watching signalNumbers: [Int32] = [SIGTERM, SIGINT, SIGHUP]) throws(StartupError) {
        Self.ignoreBrokenPipe()
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Self.failure(SystemCallError("pipe")) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        signalPipeWriteEnd.store(writeEnd, ordering: .sequentiallyConsistent)
        for number in signalNumbers {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = forwardSignalToPipe
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            guard sigaction(number, &action, nil) == 0 else { throw Self.failure(SystemCallError("sigaction")) }
        }

        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(16))
        let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: DispatchQueue(label: "moviesd.signals"))
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                for byte in buffer[0..<count] { continuation.yield(Int32(byte)) }
            }
        }
        source.setCancelHandler { close(readEnd) }
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

/// The self-pipe's write end, read by the signal handler (an atomic: handlers may not take locks).
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// The signal handler: writes the signal number as one byte to the self-pipe, preserving `errno`.
private func forwardSignalToPipe(_ number: Int32) {
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: number)
    let descriptor = signalPipeWriteEnd.load(ordering: .relaxed)
    if descriptor >= 0 { _ = write(descriptor, &byte, 1) }
    errno = savedErrno
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
