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
    }

    /// What the input buffer holds next.
    enum NextMessage {
        case message(ArraySlice<UInt8>)
        case incomplete
        case oversize
    }

    let fd: Int32
    let id: UInt64
    let peer: PeerCredentials?
    var activeCall: ActiveCall?
    var lastActivity: UInt64
    var registeredEvents: UInt32 = Epoll.readable
    var closeWhenFlushed = false
    /// The peer shut down its sending side: answer what was received, then close.
    var inputClosed = false
    var nextCallSerial: UInt64 = 0

    private var input: [UInt8] = []
    private var inputStart = 0
    private var scannedUpTo = 0
    private var output: [UInt8] = []
    private var outputStart = 0

    init(fd: Int32, id: UInt64, peer: PeerCredentials?, now: UInt64) {
        self.fd = fd
        self.id = id
        self.peer = peer
        lastActivity = now
    }

    var pendingInputBytes: Int { input.count - inputStart }
    var pendingOutputBytes: Int { output.count - outputStart }

    /// Reads what the socket has, up to about `limit` buffered bytes; notes end of input in
    /// ``inputClosed``. Returns false when the socket failed.
    func readAvailable(into scratch: inout [UInt8], limit: Int) -> Bool {
        var rounds = 0
        while pendingInputBytes <= limit, rounds < 16 {
            rounds += 1
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                input.append(contentsOf: scratch[0..<count])
                // A short read drained the socket: skip the recv that would only say EAGAIN (the
                // loop's epoll is level-triggered, so whatever arrives next is reported again).
                if count < scratch.count { return true }
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
            compactInput()
            return .message(message)
        }
        scannedUpTo = input.count
        return pendingInputBytes > maxBytes ? .oversize : .incomplete
    }

    private func compactInput() {
        if inputStart == input.count {
            input.removeAll(keepingCapacity: input.capacity <= 1 << 20)
            inputStart = 0
            scannedUpTo = 0
        } else if inputStart > 1 << 16, inputStart * 2 > input.count {
            input.removeFirst(inputStart)
            scannedUpTo -= inputStart
            inputStart = 0
        }
    }

    /// Appends one message and its NUL terminator to the output buffer.
    func enqueue(_ message: [UInt8]) {
        output.append(contentsOf: message)
        output.append(0)
    }

    /// Writes as much buffered output as the socket takes without blocking.
    /// Returns false when the socket failed (peer gone).
    func flush() -> Bool {
        while pendingOutputBytes > 0 {
            let written = output.withUnsafeBytes { bytes in
                send(fd, bytes.baseAddress.map { $0 + outputStart }, pendingOutputBytes, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if written > 0 {
                outputStart += written
                continue
            }
            if written < 0, errno == EINTR { continue }
            if written < 0, errno == EAGAIN || errno == EWOULDBLOCK { break }
            return false
        }
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 1 << 20)
            outputStart = 0
        } else if outputStart > 1 << 16, outputStart * 2 > output.count {
            output.removeFirst(outputStart)
            outputStart = 0
        }
        return true
    }
}
