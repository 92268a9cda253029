import Glibc
import Synchronization
import SystemSupport

/// The server's event loop: one thread in epoll_wait over the listener, every connection and a
/// wake-up pipe. Handler tasks post their replies to `inbox` and write a byte to the pipe.
///
/// Everything but `inbox` is confined to the loop thread, hence `@unchecked Sendable`.
final class VarlinkEventLoop: @unchecked Sendable {
    private struct Inbox {
        var events: [LoopEvent] = []
        var wakePending = false
        var closed = false
    }

    /// Output above this stops reading and starting calls until the peer catches up (the kernel's
    /// socket buffer holds about as much again).
    static let outputHighWater = 128 * 1024
    /// Output above this (a peer that never reads a long stream) closes the connection: the high
    /// water mark plus one more message of the largest size.
    let outputHardLimit: Int

    let configuration: VarlinkServerConfiguration
    let handlers: VarlinkServer.Handlers
    let counter: ConnectionCounter
    let epoll: Epoll
    private let listener: VarlinkListener
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let inbox = Mutex(Inbox())

    var connections: [Int32: VarlinkConnection] = [:]
    /// Input bytes buffered over all connections (see `inputLimit(of:)`).
    var bufferedInputBytes = 0
    /// Connections per user, and who may open one more.
    var admission = ConnectionAdmission()
    var nextConnectionID: UInt64 = 0
    var listening = true
    var acceptPausedUntil: UInt64?
    var drainDeadline: UInt64?
    var nextSweep = UInt64.max
    var scratch = [UInt8](repeating: 0, count: 65_536)
    /// Connections serviced in this turn of the loop and not yet settled (see `settleServiced()`).
    var serviced: [VarlinkConnection] = []
    /// The most connections serviced before their replies are written.
    static let settleBatch = 16
    /// The longest the replies of a batch wait for the rest of it: 0.2 ms.
    static let settleDelayNanoseconds: UInt64 = 200_000
    /// Input above this on a connection about to be serviced (many pipelined calls) settles the
    /// batch first.
    static let settleBeforeInputBytes = 4096
    /// When the first connection of the batch in `serviced` was serviced.
    var firstServicedAt: UInt64 = 0
    /// The loop's counts: its calls, their latency, its connections (this thread's alone).
    var metrics = LoopMetrics()


    init(listener: VarlinkListener, handlers: VarlinkServer.Handlers, configuration: VarlinkServerConfiguration, counter: ConnectionCounter) throws(VarlinkSocketError) {
        epoll = try Epoll()
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw VarlinkSocketError(code: .eventLoopUnavailable, errno: errno, path: nil) }
        wakeReader = pipeEnds[0]
        wakeWriter = pipeEnds[1]
        SocketOptions.makeNonBlocking(wakeReader)
        SocketOptions.makeNonBlocking(wakeWriter)
        self.listener = listener
        self.handlers = handlers
        self.configuration = configuration
        self.counter = counter
        outputHardLimit = Self.outputHighWater + configuration.maxMessageBytes
        guard epoll.add(wakeReader, events: Epoll.readable), epoll.add(listener.fileDescriptor, events: Epoll.readable) else {
            // Every stored property is set, so `deinit` runs and closes the pipe.
            let failure = errno
            throw VarlinkSocketError(code: .systemCallFailed, errno: failure, path: listener.path)
        }
    }

    /// The wake-up pipe lives as long as this object (not only as long as `run()`), so `post` may
    /// write to it after releasing the inbox lock.
    deinit {
        Glibc.close(wakeReader)
        Glibc.close(wakeWriter)
    }

    /// Hands `event` to the loop thread; safe from any thread; dropped (returning false) once the
    /// loop has ended. Only the first event after a drain writes the wake-up byte, outside the lock.
    @discardableResult
    func post(_ event: LoopEvent) -> Bool {
        let (accepted, wakes) = inbox.withLock { state -> (Bool, Bool) in
            guard !state.closed else { return (false, false) }
            state.events.append(event)
            guard !state.wakePending else { return (true, false) }
            state.wakePending = true
            return (true, true)
        }
        guard wakes else { return accepted }
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
        return accepted
    }

    /// A copy of the loop's counts, asked of the loop thread (which owns them); once the loop
    /// has ended, its last counts (read on the thread that waited for it to end).
    func metricsSnapshot() async -> VarlinkServerMetrics {
        await withCheckedContinuation { continuation in
            if !post(.metrics(continuation)) { continuation.resume(returning: metrics.snapshot(openConnections: 0)) }
        }
    }

    /// Runs until a shutdown has drained every connection.
    func run() {
        while !(drainDeadline != nil && connections.isEmpty) {
            for (fd, events) in epoll.waitForEvents(timeoutMilliseconds: waitTimeout()) {
                if fd == wakeReader {
                    drainInbox()
                } else if fd == listener.fileDescriptor {
                    if listening { acceptConnections() }
                } else if let connection = connections[fd] {
                    handle(events, on: connection)
                }
            }
            if MonotonicClock.now() >= nextSweep { sweep() }
            settleServiced()
        }
        let left = inbox.withLock { state in
            state.closed = true
            defer { state.events = [] }
            return state.events
        }
        // Whoever asked for the counts as the loop ended gets them.
        for case .metrics(let continuation) in left { continuation.resume(returning: metrics.snapshot(openConnections: connections.count)) }
        epoll.remove(wakeReader)
    }

    private func waitTimeout() -> Int32 {
        guard nextSweep != .max else { return -1 }
        let now = MonotonicClock.now()
        guard nextSweep > now else { return 0 }
        return Int32(min((nextSweep - now + 999_999) / 1_000_000, 60_000))
    }

    private func drainInbox() {
        while read(wakeReader, &scratch, scratch.count) > 0 {}
        let events = inbox.withLock { state in
            state.wakePending = false
            defer { state.events = [] }
            return state.events
        }
        for event in events {
            switch event {
            case .reply(let fd, let connection, let call, let message, let isFinal, let failure):
                deliverReply(fd: fd, connectionID: connection, callSerial: call, message: message, isFinal: isFinal, failure: failure)
            case .metrics(let continuation):
                continuation.resume(returning: metrics.snapshot(openConnections: connections.count))
            case .shutdown(let graceSeconds):
                beginDrain(graceSeconds: graceSeconds)
            }
        }
    }

    private func acceptConnections() {
        for _ in 0..<256 {
            let fd = accept(listener.fileDescriptor, nil, nil)
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors: stop polling the listener briefly instead of spinning.
                    epoll.remove(listener.fileDescriptor)
                    let resume = MonotonicClock.now() + 100_000_000
                    acceptPausedUntil = resume
                    nextSweep = min(nextSweep, resume)
                    return
                default: return
                }
            }
            guard drainDeadline == nil else {
                Glibc.close(fd)
                continue
            }
            SocketOptions.makeNonBlocking(fd)
            let peer = SocketOptions.peerCredentials(of: fd)
            if let refusal = admission.refusal(for: peer, open: connections.count, configuration: configuration) {
                metrics.refused(refusal.cause)
                refuse(fd, refusal)
                continue
            }
            let now = MonotonicClock.now()
            nextConnectionID += 1
            let connection = VarlinkConnection(fd: fd, id: nextConnectionID, peer: peer, now: now)
            guard epoll.add(fd, events: Epoll.readable) else {
                Glibc.close(fd)
                continue
            }
            connections[fd] = connection
            metrics.accepted()
            admission.opened(peer)
            counter.add(1)
            nextSweep = min(nextSweep, now + MonotonicClock.timeout(seconds: configuration.idleTimeoutSeconds))
        }
    }

    private func handle(_ events: UInt32, on connection: VarlinkConnection) {
        if events & (Epoll.failed | Epoll.hungUp) != 0 {
            close(connection)
            return
        }
        if events & Epoll.readable != 0 {
            let readable = connection.readAvailable(into: &scratch) { inputLimit(of: connection) }
            account(connection)
            guard readable else {
                close(connection)
                return
            }
        }
        service(connection)
    }

    /// Tells a refused peer why (the reply to the call it has sent, or is about to) and closes:
    /// the limit it hit, or `PermissionDenied` for a peer the server cannot name.
    /// The call already queued is read first, so the close does not reset the connection.
    private func refuse(_ fd: Int32, _ refusal: ConnectionAdmission.Refusal) {
        var discard = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<4 where discard.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
        let error = switch refusal {
        case let .limit(limit, reason, _): configuration.connectionLimitError(limit, reason)
        case .unnamedPeer: VarlinkError.permissionDenied
        }
        var message = VarlinkMessage.encodeError(error)
        message.append(0)
        _ = message.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        Glibc.close(fd)
    }

    /// Stops listening for new connections and removes the socket file this server created.
    func stopListening() {
        guard listening else { return }
        listening = false
        if acceptPausedUntil == nil { epoll.remove(listener.fileDescriptor) }
        acceptPausedUntil = nil
        Glibc.close(listener.fileDescriptor)
        if let path = listener.path { unlink(path) }
    }

    /// Resumes polling the listener after an out-of-descriptors pause.
    func resumeAccepting() {
        guard listening, acceptPausedUntil != nil else { return }
        acceptPausedUntil = nil
        _ = epoll.add(listener.fileDescriptor, events: Epoll.readable)
    }

    /// Closes `connection` at once, cancelling its handler task.
    func close(_ connection: VarlinkConnection) {
        guard connections[connection.fd] === connection else { return }
        if let active = connection.activeCall {
            metrics.ended(slot: active.metricsSlot, startedAt: active.startedAt, failure: VarlinkMethodMetrics.disconnected, withFirstReply: false)
        }
        connection.activeCall?.task.cancel()
        connection.activeCall = nil
        epoll.remove(connection.fd)
        Glibc.close(connection.fd)
        connections[connection.fd] = nil
        bufferedInputBytes -= connection.accountedInputBytes
        counter.setBufferedInput(bufferedInputBytes)
        admission.closed(connection.peer)
        counter.add(-1)
    }
}
