import Glibc

/// A connection's output: messages waiting to be written, as a queue of byte arrays written with
/// one `sendmsg` per batch (gather I/O), so that a large shared piece of a reply (a cached page's
/// stored bytes) goes from memory to the socket without being copied into a buffer first.
///
/// Small pieces are copied into a buffer the queue owns (one array for many small messages, up to
/// ``keptCapacity``); pieces of ``sharedMinimum`` bytes or more are queued as they are (a
/// reference, not a copy). The queue ends every message with its NUL. What is written is let go at
/// once, so the queue holds only what ``count`` says.
struct OutputQueue {
    /// Pieces at least this large are queued without a copy.
    static let sharedMinimum = 4096
    /// At most this many arrays per `sendmsg`.
    static let batch = 16
    /// An owned buffer takes small pieces up to this size; one of at most this capacity is kept
    /// for reuse once everything is written.
    static let keptCapacity = 64 * 1024

    private var chunks: [[UInt8]] = []
    /// The first chunk not yet written completely, and how much of it was.
    private var head = 0
    private var headWritten = 0
    /// Whether small pieces may be appended to the last chunk: a buffer of the queue's own, not yet
    /// being written, with room left.
    private var lastTakesMore = false
    /// Bytes queued and not yet written.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The bytes of every array the queue holds: ``count`` plus the written part of the first one,
    /// and at most one kept buffer's capacity (``keptCapacity``) more.
    var heldBytes: Int { chunks[head...].reduce(0) { $0 + $1.count } + chunks[..<head].reduce(0) { $0 + $1.count } }

    /// Queues one message and its NUL terminator.
    mutating func append(message: [UInt8]) {
        append(piece: message)
        appendOwned(CollectionOfOne(0))
    }

    /// Queues one message given in pieces, one after another, and its NUL terminator.
    mutating func append(pieces: [[UInt8]]) {
        for piece in pieces { append(piece: piece) }
        appendOwned(CollectionOfOne(0))
    }

    private mutating func append(piece: [UInt8]) {
        guard !piece.isEmpty else { return }
        guard piece.count < Self.sharedMinimum else {
            chunks.append(piece)
            lastTakesMore = false
            count += piece.count
            return
        }
        appendOwned(piece)
    }

    private mutating func appendOwned<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if lastTakesMore, chunks.count - 1 > head || (chunks.count - 1 == head && headWritten == 0) {
            chunks[chunks.count - 1].append(contentsOf: bytes)
        } else {
            var owned: [UInt8] = []
            owned.reserveCapacity(Swift.max(bytes.count, 256))
            owned.append(contentsOf: bytes)
            chunks.append(owned)
        }
        lastTakesMore = chunks[chunks.count - 1].count < Self.keptCapacity
        count += bytes.count
    }

    /// Writes as much as the socket `fd` takes without blocking. Returns false when the socket
    /// failed (peer gone).
    mutating func write(to fd: Int32) -> Bool {
        while count > 0 {
            let (written, failure) = withUnsafeTemporaryAllocation(of: iovec.self, capacity: Self.batch) { vectors in
                gather(from: head, into: vectors, filled: 0) { filled in
                    var header = msghdr()
                    header.msg_iov = vectors.baseAddress
                    header.msg_iovlen = filled
                    let written = sendmsg(fd, &header, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                    return (written, written < 0 ? errno : 0)
                }
            }
            if written > 0 {
                consume(written)
                continue
            }
            if written < 0, failure == EINTR { continue }
            if written < 0, failure == EAGAIN || failure == EWOULDBLOCK { break }
            return false
        }
        return true
    }

    /// Points `vectors` at the queued chunks from `index` on (up to ``batch`` of them), each held
    /// by its array for the duration of `send`.
    private func gather(
        from index: Int, into vectors: UnsafeMutableBufferPointer<iovec>, filled: Int, send: (Int) -> (Int, Int32)
    ) -> (Int, Int32) {
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

    /// Drops `written` bytes from the front, letting go of every chunk written completely.
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
            if count > 0 { chunks[head] = [] }
            head += 1
            headWritten = 0
        }
        if count == 0 {
            // Everything is written: keep one owned buffer's capacity for the next messages.
            let reusable = lastTakesMore && chunks.last.map { $0.capacity <= Self.keptCapacity } == true
            var kept = reusable ? chunks.removeLast() : []
            kept.removeAll(keepingCapacity: true)
            chunks.removeAll(keepingCapacity: true)
            head = 0
            headWritten = 0
            if reusable { chunks.append(kept) }
            lastTakesMore = reusable
        } else if head >= 32 {
            chunks.removeFirst(head)
            head = 0
        }
    }
}
