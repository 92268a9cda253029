import Glibc

/// A connection's output: messages waiting to be written, as a queue of byte arrays written with
/// one `sendmsg` per batch (gather I/O), so that a large shared piece of a reply (a cached page's
/// stored bytes) goes from memory to the socket without being copied into a buffer first.
///
/// Small pieces are copied into a buffer the queue owns (one array for many small messages);
/// pieces of ``sharedMinimum`` bytes or more are queued as they are (a reference, not a copy).
struct OutputQueue {
    /// Pieces at least this large are queued without a copy.
    static let sharedMinimum = 4096
    /// At most this many arrays per `sendmsg`.
    static let batch = 16
    /// Owned buffers of at most this capacity are kept for reuse once written.
    static let keptCapacity = 64 * 1024

    private var chunks: [[UInt8]] = []
    /// The first chunk not yet written completely, and how much of it was.
    private var head = 0
    private var headWritten = 0
    /// Whether the last chunk is a buffer of the queue's own (small pieces are appended to it).
    private var lastIsOwned = false
    /// Bytes queued and not yet written.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Queues one message and its NUL terminator.
    mutating func append(message: [UInt8]) {
        append(piece: message)
        appendOwned(CollectionOfOne(0))
    }

    /// Queues `pieces` one after another (a message already terminated by its NUL).
    mutating func append(pieces: [[UInt8]]) {
        for piece in pieces { append(piece: piece) }
    }

    private mutating func append(piece: [UInt8]) {
        guard !piece.isEmpty else { return }
        guard piece.count < Self.sharedMinimum else {
            chunks.append(piece)
            lastIsOwned = false
            count += piece.count
            return
        }
        appendOwned(piece)
    }

    private mutating func appendOwned<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if lastIsOwned, !chunks.isEmpty {
            chunks[chunks.count - 1].append(contentsOf: bytes)
        } else {
            var owned: [UInt8] = []
            owned.reserveCapacity(Swift.max(bytes.count, 256))
            owned.append(contentsOf: bytes)
            chunks.append(owned)
            lastIsOwned = true
        }
        count += bytes.count
    }

    /// Writes as much as the socket `fd` takes without blocking. Returns false when the socket
    /// failed (peer gone).
    mutating func write(to fd: Int32) -> Bool {
        while count > 0 {
            let written = withUnsafeTemporaryAllocation(of: iovec.self, capacity: Self.batch) { vectors in
                gather(from: head, into: vectors, filled: 0) { filled in
                    var header = msghdr()
                    header.msg_iov = vectors.baseAddress
                    header.msg_iovlen = filled
                    return sendmsg(fd, &header, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
            }
            if written > 0 {
                consume(written)
                continue
            }
            if written < 0, errno == EINTR { continue }
            if written < 0, errno == EAGAIN || errno == EWOULDBLOCK { break }
            return false
        }
        return true
    }

    /// Points `vectors` at the queued chunks from `index` on (up to ``batch`` of them), each held
    /// by its array for the duration of `send`.
    private func gather(from index: Int, into vectors: UnsafeMutableBufferPointer<iovec>, filled: Int, send: (Int) -> Int) -> Int {
        guard index < chunks.count, filled < vectors.count else { return send(filled) }
        return chunks[index].withUnsafeBytes { bytes in
            let skip = index == head ? headWritten : 0
            guard let base = bytes.baseAddress, bytes.count > skip else {
                return gather(from: index + 1, into: vectors, filled: filled, send: send)
            }
            vectors[filled] = iovec(iov_base: UnsafeMutableRawPointer(mutating: base + skip), iov_len: bytes.count - skip)
            return gather(from: index + 1, into: vectors, filled: filled + 1, send: send)
        }
    }

    /// Drops `written` bytes from the front.
    private mutating func consume(_ written: Int) {
        count -= written
        var left = written
        while left > 0, head < chunks.count {
            let remaining = chunks[head].count - headWritten
            if left < remaining {
                headWritten += left
                return
            }
            left -= remaining
            head += 1
            headWritten = 0
        }
        if count == 0 {
            // Everything is written: keep one owned buffer's capacity for the next messages.
            let reusable = lastIsOwned && chunks.last.map { $0.capacity <= Self.keptCapacity } == true
            var kept = reusable ? chunks.removeLast() : []
            kept.removeAll(keepingCapacity: true)
            chunks.removeAll(keepingCapacity: true)
            head = 0
            headWritten = 0
            if reusable {
                chunks.append(kept)
                lastIsOwned = true
            } else {
                lastIsOwned = false
            }
        } else if head >= 32 {
            chunks.removeFirst(head)
            head = 0
        }
    }
}
