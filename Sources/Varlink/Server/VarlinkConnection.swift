import Glibc

/// One client connection: its socket, buffers and the call in flight.
///
/// Owned by the event loop thread; never touched from anywhere else.
final class VarlinkConnection {
    /// The call a handler task is working on.
    struct ActiveCall {
        let serial: UInt64
        let task: Task<Void, Never>
        let deadline: UInt64
        /// The deadline in seconds, as reported in the timeout error.
        let deadlineSeconds: Int
        /// False for `oneway` calls: their final reply is dropped.
        let sendsReply: Bool
        /// True for `more` calls: intermediate replies are forwarded.
        let streams: Bool
        /// Where the loop counts the call (`LoopMetrics`), when its message was read, and whether
        /// its first reply was counted.
        let metricsSlot: Int
        let startedAt: UInt64
        var firstReplyCounted: Bool
    }

    /// What the input buffer holds next.
    enum NextMessage {
        case message(ArraySlice<UInt8>)
        case incomplete
        case oversize
    }

    let fd: Int32
    let id: UInt64
    /// What the loop's epoll reports with this connection's events besides its descriptor (its
    /// id's low bits): a closed connection's number may be a new one's before the events of the
    /// batch that reported the old one are all handled.
    var epollTag: UInt32 { UInt32(truncatingIfNeeded: id) }
    let peer: PeerCredentials?
    var activeCall: ActiveCall?
    var lastActivity: UInt64
    var registeredEvents: UInt32 = Epoll.readable
    var closeWhenFlushed = false
    /// The peer shut down its sending side: answer what was received, then close.
    var inputClosed = false
    var nextCallSerial: UInt64 = 0
    /// Serviced in this turn of the event loop; its output is written when the turn settles it.
    var awaitsSettling = false
    /// The input bytes this connection counts for in the server's input budget.
    var accountedInputBytes = 0
    /// Not read because its input reached its limit; in the loop's `waitingForInputRoom`.
    var waitsForInputRoom = false
    /// It was given the turn to grow its message past the spent input budget (one connection
    /// at a time has it; see `ConnectionCounter.claimGrowthPastBudget`).
    var growsPastBudget = false
    /// How many input bytes it held when its turn to grow past the budget last counted as
    /// progress: a turn is kept by ``VarlinkEventLoop/turnProgressBytes`` more each time, not by
    /// a byte now and then.
    var turnProgressMark = 0
    /// The peer is gone (it hung up, or a write to it failed): nothing more is written to it nor
    /// waited for on it; the oneway calls it sent whole before it left still run (what its socket
    /// still holds is read as they end), and the connection closes after them.
    private(set) var peerGone = false
    /// The largest message queued since the output was last empty: the output's hard limit
    /// makes room for it, so one large reply is sent, not taken for a client that stopped reading.
    private(set) var largestQueuedMessage = 0

    private var input: [UInt8] = []
    private var inputStart = 0
    private var scannedUpTo = 0
    private var output = OutputQueue()

    init(fd: Int32, id: UInt64, peer: PeerCredentials?, now: UInt64) {
        self.fd = fd
        self.id = id
        self.peer = peer
        lastActivity = now
    }

    var pendingInputBytes: Int { input.count - inputStart }
    var pendingOutputBytes: Int { output.count }

    /// Input buffered beyond a complete message is capped at this: calls a client sends faster than
    /// it reads the replies wait in the kernel's socket buffers (and then in the client), not here.
    /// It is also how far any message may grow while the server's input budget is spent.
    static let queuedInputLimit = 16 * 1024
    /// Buffers of at most this capacity are kept for reuse when emptied; larger ones are freed.
    static let keptCapacity = 64 * 1024

    /// How many input bytes may be buffered: while no complete message is, up to `maxMessageBytes`
    /// (one message may be that large, and a larger one must be seen to be refused) as long as the
    /// server's input budget allows (`mayGrow`); otherwise ``queuedInputLimit``.
    func inputLimit(maxMessageBytes: Int, mayGrow: Bool) -> Int {
        mayGrow && !holdsCompleteMessage() ? maxMessageBytes : Self.queuedInputLimit
    }

    /// Whether the input buffer holds a whole message (a NUL); remembers how far it looked.
    func holdsCompleteMessage() -> Bool {
        let start = max(inputStart, scannedUpTo)
        guard let terminator = input[start...].firstIndex(of: 0) else {
            scannedUpTo = input.count
            return false
        }
        scannedUpTo = terminator
        return true
    }

    /// Reads what the socket has up to one byte past `limit()` (so an oversize message shows);
    /// notes end of input in ``inputClosed``. Returns false when the socket failed.
    func readAvailable(into scratch: inout [UInt8], limit: () -> Int) -> Bool {
        var rounds = 0
        while rounds < 16 {
            let room = min(scratch.count, limit() + 1 - pendingInputBytes)
            guard room > 0 else { return true }
            rounds += 1
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, room, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                input.append(contentsOf: scratch[0..<count])
                // A short read drained the socket: skip the recv that would only say EAGAIN (the
                // loop's epoll is level-triggered, so whatever arrives next is reported again).
                if count < room { return true }
                continue
            }
            if count == 0 {
                inputClosed = true
                return true
            }
            switch errno {
            case EAGAIN, EWOULDBLOCK: return true
            case EINTR: continue
            default: return false
            }
        }
        return true
    }

    /// The next complete message (NUL stripped), or why there is none.
    func nextMessage(maxBytes: Int) -> NextMessage {
        let searchStart = max(inputStart, scannedUpTo)
        if let terminator = input[searchStart...].firstIndex(of: 0) {
            guard terminator - inputStart <= maxBytes else { return .oversize }
            let message = input[inputStart..<terminator]
            inputStart = terminator + 1
            scannedUpTo = inputStart
            return .message(message)
        }
        scannedUpTo = input.count
        return pendingInputBytes > maxBytes ? .oversize : .incomplete
    }

    /// Drops all buffered input (the connection is closing after an oversize message).
    func discardInput() {
        input.removeAll(keepingCapacity: false)
        inputStart = 0
        scannedUpTo = 0
    }

    /// Empties the input buffer when every message in it was taken (its capacity kept only when
    /// small), or drops a long consumed prefix. Only while no message taken from it is in use (the
    /// loop calls it once per service, after the messages taken are decoded: emptied while one
    /// still shared it, the buffer would be copied).
    func compactInput() {
        if inputStart == input.count {
            input.removeAll(keepingCapacity: input.capacity <= Self.keptCapacity)
            inputStart = 0
            scannedUpTo = 0
        } else if inputStart > 1 << 16, inputStart * 2 > input.count {
            input.removeFirst(inputStart)
            scannedUpTo -= inputStart
            inputStart = 0
        }
    }

    /// Queues one message and its NUL terminator (nothing once the peer is gone).
    func enqueue(_ message: [UInt8]) {
        guard !peerGone else { return }
        let before = output.count
        output.append(message: message)
        largestQueuedMessage = max(largestQueuedMessage, output.count - before)
    }

    /// Queues a message given in pieces (see ``VarlinkMessage/encodeReplyPieces(_:continues:)``)
    /// and its NUL terminator: large pieces are written from where they are, not copied.
    func enqueue(pieces: [[UInt8]]) {
        guard !peerGone else { return }
        let before = output.count
        output.append(pieces: pieces)
        largestQueuedMessage = max(largestQueuedMessage, output.count - before)
    }

    /// Writes as much queued output as the socket takes without blocking.
    /// Returns false when the socket failed (peer gone).
    func flush() -> Bool {
        guard !peerGone else { return true }
        let written = output.write(to: fd)
        if output.count == 0 { largestQueuedMessage = 0 }
        return written
    }

    /// Notes that the peer is gone: its queued output is dropped and no more is queued.
    func peerLeft() {
        peerGone = true
        inputClosed = true
        output = OutputQueue()
        largestQueuedMessage = 0
    }
}
