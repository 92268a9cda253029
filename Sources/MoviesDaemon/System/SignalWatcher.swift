import Dispatch
import Glibc
import Synchronization

/// Delivers SIGTERM, SIGINT and SIGHUP as an asynchronous stream instead of killing the process.
///
/// Each signal is first set to `SIG_IGN` so its default action (terminate) cannot run, then watched
/// with a `DispatchSource` signal source, which still sees ignored signals. SIGTERM and SIGINT mean
/// "drain and exit 0"; SIGHUP may reopen logs or be ignored.
public struct SignalWatcher: Sendable {
    /// The signals received, in order. Ends when the watcher's stream is no longer iterated.
    public let signals: AsyncStream<Int32>

    /// The signals that ask the daemon to stop.
    public static let shutdownSignals: Set<Int32> = [SIGTERM, SIGINT]

    /// Starts watching `signalNumbers` (by default SIGTERM, SIGINT and SIGHUP) and ignores SIGPIPE, so a
    /// client that goes away yields `EPIPE` instead of killing the daemon.
    public init(watching signalNumbers: [Int32] = [SIGTERM, SIGINT, SIGHUP]) {
        Self.ignoreBrokenPipe()
        let queue = DispatchQueue(label: "moviesd.signals")
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(16))
        let sources = signalNumbers.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                for _ in 0..<max(1, Int(source.data)) { continuation.yield(number) }
            }
            source.resume()
            return source
        }
        let watched = WatchedSignalSources(sources)
        continuation.onTermination = { _ in watched.cancelAll() }
        self.signals = stream
    }

    /// Sets SIGPIPE to `SIG_IGN`.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }
}

/// Owns the dispatch sources for as long as the stream lives, and cancels them when it ends.
private final class WatchedSignalSources: Sendable {
    private let sources: Mutex<[any DispatchSourceSignal]>

    init(_ sources: sending [any DispatchSourceSignal]) {
        self.sources = Mutex(sources)
    }

    func cancelAll() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
            sources.removeAll()
        }
    }
}
