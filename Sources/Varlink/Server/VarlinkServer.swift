import Glibc
import Synchronization
import SystemSupport

/// A Varlink server (https://varlink.org) on a Unix socket.
///
/// Event-loop threads (``VarlinkServerConfiguration/eventLoops``, each with its own epoll set)
/// multiplex the connections over non-blocking sockets, each connection on one loop; handlers run
/// as Swift concurrency tasks. Calls on one connection run one after another so
/// pipelined replies keep their order; different connections run concurrently. The built-in
/// `org.varlink.service` answers `GetInfo` and `GetInterfaceDescription`.
public final class VarlinkServer: Sendable {
    private struct State {
        var loops: [VarlinkEventLoop] = []
        var requestedGraceSeconds: Int?
        /// The counts of the loops that have ended.
        var endedMetrics = VarlinkServerMetrics()
    }

    /// The interfaces a server serves besides `org.varlink.service`, by name and in order.
    struct Handlers: Sendable {
        let byName: [String: any VarlinkInterfaceHandler]
        let names: [String]
        /// The handlers in the order of ``names``.
        private let ordered: [any VarlinkInterfaceHandler]

        init(_ handlers: [any VarlinkInterfaceHandler]) {
            var byName: [String: any VarlinkInterfaceHandler] = [:]
            var names: [String] = []
            for handler in handlers where byName[handler.interfaceName] == nil && handler.interfaceName != VarlinkServiceInterface.name {
                byName[handler.interfaceName] = handler
                names.append(handler.interfaceName)
            }
            self.byName = byName
            self.names = names
            ordered = names.compactMap { byName[$0] }
        }

        /// The handler of the interface `call` is to, found without making the interface's name.
        func handler(for call: VarlinkCall) -> (any VarlinkInterfaceHandler)? {
            for (name, handler) in zip(names, ordered) where call.isIn(interface: name) { return handler }
            return nil
        }
    }

    private let configuration: VarlinkServerConfiguration
    private let handlers: Handlers
    private let counter = ConnectionCounter()
    private let state = Mutex(State())

    /// Creates a server for `handlers` (one per interface; a duplicate interface name is ignored).
    public init(configuration: VarlinkServerConfiguration, handlers: [any VarlinkInterfaceHandler]) {
        self.configuration = configuration
        self.handlers = Handlers(handlers)
    }

    /// The number of open client connections.
    public var connectionCount: Int { counter.value }

    /// Input bytes the server holds unparsed over all connections (bounded: clients that send
    /// faster than they read are simply not read).
    public var bufferedInputBytes: Int { counter.bufferedInputBytes }

    /// What the server counted: its calls by method and outcome, their latency, its connections.
    /// Each event loop is asked for its own counts (on its own thread, which alone writes them)
    /// and they are added up, with those of loops that have ended.
    public func metrics() async -> VarlinkServerMetrics {
        let (loops, ended) = state.withLock { ($0.loops, $0.endedMetrics) }
        var metrics = ended
        for loop in loops { metrics.merge(await loop.metricsSnapshot()) }
        return metrics
    }

    /// Serves connections from `listener` until ``shutdown(gracePeriodSeconds:)`` has drained them.
    /// Cancelling the calling task shuts down with no grace period.
    public func run(on listener: VarlinkListener) async throws {
        let group = LoopGroup(count: configuration.eventLoops, counter: counter)
        var loops: [VarlinkEventLoop] = []
        for index in 0..<group.count {
            loops.append(try VarlinkEventLoop(
                listener: index == 0 ? listener : nil, handlers: handlers, configuration: configuration, group: group, index: index))
        }
        loops[0].siblings = loops
        let pendingGrace = state.withLock { state in
            state.loops = loops
            return state.requestedGraceSeconds
        }
        if let pendingGrace { for loop in loops { loop.post(.shutdown(graceSeconds: pendingGrace)) } }
        var started = 0
        await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { running in
                for loop in loops {
                    let launched = await withCheckedContinuation { (launched: CheckedContinuation<Bool, Never>) in
                        let ran = NativeThread.detached {
                            launched.resume(returning: true)
                            loop.run()
                        }
                        if !ran { launched.resume(returning: false) }
                    }
                    guard launched else { break }
                    started += 1
                    running.addTask { await loop.finished() }
                }
                if started < loops.count { shutdown(gracePeriodSeconds: 0) }
            }
        } onCancel: {
            shutdown(gracePeriodSeconds: 0)
        }
        // Every loop's thread has ended: their counts are final.
        state.withLock { state in
            for loop in state.loops { state.endedMetrics.merge(loop.metrics.snapshot(openConnections: 0)) }
            state.loops = []
        }
        if started < loops.count { throw VarlinkSocketError(code: .eventLoopUnavailable, errno: EAGAIN, path: listener.path) }
    }

    /// Stops accepting connections, lets calls in flight finish for up to `gracePeriodSeconds`,
    /// then cancels them and closes every connection; ``run(on:)`` returns after that. Asked
    /// again, it keeps the earlier end of the two grace periods.
    public func shutdown(gracePeriodSeconds: Int = 10) {
        let loops = state.withLock { state in
            state.requestedGraceSeconds = min(state.requestedGraceSeconds ?? gracePeriodSeconds, gracePeriodSeconds)
            return state.loops
        }
        for loop in loops { loop.post(.shutdown(graceSeconds: gracePeriodSeconds)) }
    }
}
