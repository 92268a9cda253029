import Glibc
import Synchronization
import SystemSupport

/// One of the server's event loops: a thread in epoll_wait over its connections and a
/// `LoopWaker`, and, for the first loop of a group, the listener. The first loop accepts every
/// connection and hands each to the loop with the fewest (`LoopGroup`); a connection then stays
/// on its loop. Handler tasks post their replies to the inbox of their connection's loop and
/// wake it.
///
/// Everything but `inbox` is confined to the loop thread, hence `@unchecked Sendable`.
final class VarlinkEventLoop: @unchecked Sendable {
    private struct Inbox {
        var events: [LoopEvent] = []
        var closed = false
    }

    /// Output above this stops reading and starting calls until the peer catches up (the kernel's
    /// socket buffer holds about as much again).
    static let outputHighWater = 128 * 1024
    /// Output above this (a peer that never reads a long stream) closes the connection: the high
    /// water mark plus one more message of the largest size (or of the largest reply queued, when
    /// that is larger: see `settle`).
    let outputHardLimit: Int
    /// A message growing past the spent input budget keeps its turn while it grows by this much
    /// within ``ConnectionCounter/stalledGrowthNanoseconds`` (64 KiB a second): a client that
    /// sends a byte now and then does not hold every other large message back.
    static let turnProgressBytes = 64 * 1024
    /// Reads of a gone peer's socket in one service (each up to the input's limit, 16 KiB while a
    /// whole call is buffered): more than a socket buffer holds (about 200 KiB) after a close.
    static let peerGoneReadRounds = 64

    let configuration: VarlinkServerConfiguration
    let handlers: VarlinkServer.Handlers
    let counter: ConnectionCounter
    let epoll: Epoll
    /// The listener, on the group's first loop only.
    private let listener: VarlinkListener?
    /// The loops of the group and this one's place among them.
    private let group: LoopGroup
    let index: Int
    /// The group's loops, by index (set before they run; read only by the accepting loop).
    var siblings: [VarlinkEventLoop] = []
    /// Lives as long as this object (not only as long as `run()`), so `post` may wake it after
    /// releasing the inbox lock.
    private let waker: LoopWaker
    private let inbox = Mutex(Inbox())
    /// Whether `run()` has returned, and who waits for it.
    private let completion = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    var connections: [Int32: VarlinkConnection] = [:]
    var nextConnectionID: UInt64 = 0
    var listening: Bool
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
    /// Connections whose message the spent input budget holds back: when other connections
    /// (of any loop) let go of theirs, nothing tells this loop, so they are looked at again every
    /// ``inputRoomRecheckNanoseconds`` (at `nextInputRoomCheck`) until they are read or closed.
    var waitingForInputRoom: [VarlinkConnection] = []
    var nextInputRoomCheck = UInt64.max
    /// How often a connection waiting for input room is looked at again: 0.1 s.
    static let inputRoomRecheckNanoseconds: UInt64 = 100_000_000
    /// The loop's counts: its calls, their latency, its connections (this thread's alone).
    var metrics = LoopMetrics()


    /// Creates loop `index` of `group`; the first (`listener` given) accepts for all.
    init(
        listener: VarlinkListener?, handlers: VarlinkServer.Handlers, configuration: VarlinkServerConfiguration, group: LoopGroup, index: Int
    ) throws(VarlinkSocketError) {
        epoll = try Epoll()
        guard let waker = LoopWaker() else { throw VarlinkSocketError(code: .eventLoopUnavailable, errno: errno, path: nil) }
        self.waker = waker
        self.listener = listener
        listening = listener != nil
        self.handlers = handlers
        self.configuration = configuration
        self.group = group
        self.index = index
        counter = group.counter
        outputHardLimit = Self.outputHighWater + configuration.maxMessageBytes
        guard epoll.add(waker.fileDescriptor, events: Epoll.readable), listener.map({ epoll.add($0.fileDescriptor, events: Epoll.readable) }) ?? true else {
            let failure = errno
            throw VarlinkSocketError(code: .systemCallFailed, errno: failure, path: listener?.path)
        }
    }

    /// Hands `event` to the loop thread; safe from any thread; dropped (returning false) once the
    /// loop has ended.
    @discardableResult
    func post(_ event: LoopEvent) -> Bool {
        let posted = inbox.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.events.append(event)
            return true
        }
        if posted { waker.wake() }
        return posted
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
            for (fd, events, tag) in epoll.waitForEvents(timeoutMilliseconds: waitTimeout()) {
                if fd == waker.fileDescriptor {
                    drainInbox()
                } else if let listener, fd == listener.fileDescriptor {
                    if listening { acceptConnections(from: listener) }
                } else if let connection = connections[fd], connection.epollTag == tag {
                    // The tag tells a connection from an earlier one on the same descriptor
                    // number, closed and reused within this batch: its events are not this one's.
                    handle(events, on: connection)
                }
            }
            let now = MonotonicClock.now()
            if now >= nextSweep { sweep() }
            if now >= nextInputRoomCheck { recheckInputRoom() }
            settleServiced()
        }
        let orphans = inbox.withLock { state -> [LoopEvent] in
            state.closed = true
            defer { state.events = [] }
            return state.events
        }
        // A connection handed over as the loop ended: closed, and no longer counted; whoever
        // asked for the counts as the loop ended gets them.
        for event in orphans {
            switch event {
            case .adopt(let fd, let peer):
                Glibc.close(fd)
                group.closed(peer, onLoop: index)
            case .metrics(let continuation):
                continuation.resume(returning: metrics.snapshot(openConnections: connections.count))
            case .reply, .shutdown:
                break
            }
        }
        epoll.remove(waker.fileDescriptor)
        let waiters = completion.withLock { state in
            state.done = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `run()` has returned.
    func finished() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let done = completion.withLock { state in
                if !state.done { state.waiters.append(waiter) }
                return state.done
            }
            if done { waiter.resume() }
        }
    }

    private func waitTimeout() -> Int32 {
        let next = min(nextSweep, nextInputRoomCheck)
        guard next != .max else { return -1 }
        let now = MonotonicClock.now()
        guard next > now else { return 0 }
        return Int32(min((next - now + 999_999) / 1_000_000, 60_000))
    }

    private func drainInbox() {
        waker.drain()
        let events = inbox.withLock { state in
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
            case .adopt(let fd, let peer):
                adopt(fd, peer: peer)
            }
        }
    }

    private func acceptConnections(from listener: VarlinkListener) {
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
            switch group.admit(peer, configuration: configuration) {
            case .refused(let refusal):
                metrics.refused(refusal.cause)
                refuse(fd, refusal)
            case .serveOn(let target) where target == index || target >= siblings.count:
                adopt(fd, peer: peer)
            case .serveOn(let target):
                // A loop that has ended (a shutdown under way) takes no more: closed here, and
                // no longer counted on it.
                if !siblings[target].post(.adopt(fd: fd, peer: peer)) {
                    Glibc.close(fd)
                    group.closed(peer, onLoop: target)
                }
            }
        }
    }

    /// Serves the admitted connection `fd` on this loop.
    private func adopt(_ fd: Int32, peer: PeerCredentials?) {
        nextConnectionID += 1
        let connection = VarlinkConnection(fd: fd, id: nextConnectionID, peer: peer, now: MonotonicClock.now())
        guard drainDeadline == nil, epoll.add(fd, events: Epoll.readable, tag: connection.epollTag) else {
            Glibc.close(fd)
            group.closed(peer, onLoop: index)
            return
        }
        let now = connection.lastActivity
        connections[fd] = connection
        metrics.accepted()
        nextSweep = min(nextSweep, now + MonotonicClock.timeout(seconds: configuration.idleTimeoutSeconds))
    }

    private func handle(_ events: UInt32, on connection: VarlinkConnection) {
        let hungUp = events & (Epoll.failed | Epoll.hungUp) != 0
        if events & Epoll.readable != 0 || hungUp {
            // What a peer sent before it hung up is read and served all the same: a client may
            // send oneway calls and close at once.
            let before = connection.pendingInputBytes
            let readable = connection.readAvailable(into: &scratch) { inputLimit(of: connection) }
            // A message arriving slowly is activity: the idle timeout is for a silent connection.
            // (A whole one restarts the clock as its call is handled: no second reading here.)
            if connection.pendingInputBytes > before, !connection.holdsCompleteMessage() {
                connection.lastActivity = MonotonicClock.now()
            }
            account(connection)
            guard readable, !hungUp else {
                peerLeft(connection)
                service(connection)
                return
            }
        }
        service(connection)
    }

    /// The peer of `connection` is gone: nothing more is written to it nor waited for on it. A
    /// call that expects a reply is cancelled (nobody would read the reply); a oneway call runs
    /// on, and the oneway calls it sent whole after that one run in turn
    /// (``service(_:)`` reads what its socket still holds); then the connection is closed.
    func peerLeft(_ connection: VarlinkConnection) {
        connection.peerLeft()
        epoll.remove(connection.fd)
        connection.registeredEvents = 0
        if let active = connection.activeCall, active.sendsReply {
            metrics.ended(slot: active.metricsSlot, startedAt: active.startedAt, failure: VarlinkMethodMetrics.disconnected, withFirstReply: false)
            active.task.cancel()
            connection.activeCall = nil
        }
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
        guard listening, let listener else { return }
        listening = false
        if acceptPausedUntil == nil { epoll.remove(listener.fileDescriptor) }
        acceptPausedUntil = nil
        Glibc.close(listener.fileDescriptor)
        if let path = listener.path { unlink(path) }
    }

    /// Resumes polling the listener after an out-of-descriptors pause.
    func resumeAccepting() {
        guard listening, acceptPausedUntil != nil, let listener else { return }
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
        // Let go of before the descriptor is: its number may be a new connection's at once.
        if connection.growsPastBudget { counter.endGrowthPastBudget(connection.fd) }
        Glibc.close(connection.fd)
        connections[connection.fd] = nil
        counter.addBufferedInput(-connection.accountedInputBytes)
        group.closed(connection.peer, onLoop: index)
    }
}
