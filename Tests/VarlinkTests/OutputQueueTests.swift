import Glibc
import Testing
@testable import Varlink
@testable import WireJSON

/// The output queue writes every message whole and in order, through partial writes, and a large
/// raw value goes out from its own storage (not copied into a buffer).
@Suite struct OutputQueueTests {
    @Test func aLargeRawValueIsAPieceOfItsOwnSharedNotCopied() throws {
        let page: [UInt8] = Array(repeating: UInt8(ascii: "x"), count: 10_000).enumerated().map { $0.offset == 0 ? UInt8(ascii: "[") : $0.offset == 9_999 ? UInt8(ascii: "]") : UInt8(ascii: "1") }
        let value = JSONValue.object(["page": .raw(page), "freshness": .raw(Array(#"{"age":1}"#.utf8))])
        let pieces = value.serializedPieces(sharingRawOf: 4096)
        #expect(pieces.count == 3)
        #expect(Array(pieces.joined()) == value.serialized())
        let shared = pieces[1].withUnsafeBufferPointer { $0.baseAddress }
        #expect(shared == page.withUnsafeBufferPointer { $0.baseAddress })
        // Below the threshold, one piece: the text as serialize(into:) writes it.
        #expect(value.serializedPieces(sharingRawOf: .max) == [value.serialized()])
    }

    @Test func messagesArriveWholeAndInOrderThroughPartialWrites() throws {
        let ends = try Self.smallSocketPair()
        defer { close(ends[0]); close(ends[1]) }

        var queue = OutputQueue()
        var expected: [UInt8] = []
        for index in 0..<40 {
            // Small messages (copied and coalesced), and large pieces (queued as they are).
            let text = Array("message \(index)".utf8)
            queue.append(message: text)
            expected += text + [0]
            let large = [UInt8](repeating: UInt8(ascii: "a") + UInt8(index % 26), count: 5_000 + index)
            queue.append(pieces: [Array("{".utf8), large, Array("}".utf8)])
            expected += Array("{".utf8) + large + Array("}".utf8) + [0]
        }
        #expect(queue.count == expected.count)

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 3_000)
        var rounds = 0
        while received.count < expected.count, rounds < 100_000 {
            rounds += 1
            let wrote = queue.write(to: ends[0])
            #expect(wrote)
            let read = buffer.withUnsafeMutableBytes { recv(ends[1], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if read > 0 { received += buffer[0..<read] }
        }
        #expect(received == expected)
        #expect(queue.isEmpty)
        // Once empty, the queue takes more and writes it.
        queue.append(message: Array("after".utf8))
        let wroteAfter = queue.write(to: ends[0])
        #expect(wroteAfter)
        let read = buffer.withUnsafeMutableBytes { recv(ends[1], $0.baseAddress, $0.count, 0) }
        #expect(Array(buffer[0..<max(read, 0)]) == Array("after".utf8) + [0])
    }

    @Test func aLongStreamToASlowReaderHoldsOnlyWhatIsUnwritten() throws {
        let ends = try Self.smallSocketPair()
        defer { close(ends[0]); close(ends[1]) }
        var queue = OutputQueue()
        var buffer = [UInt8](repeating: 0, count: 25)
        var received = 0
        var sent = 0
        // 20,000 small replies, each written as it comes, the reader always behind: the
        // written part of a buffer is let go, never kept growing beside the unwritten part.
        for index in 0..<20_000 {
            let message = Array("{\"parameters\":{\"index\":\(index)}}".utf8)
            queue.append(message: message)
            sent += message.count + 1
            let wrote = queue.write(to: ends[0])
            #expect(wrote)
            // The reader takes 25 bytes a message: less than each message, so the queue keeps a
            // partly written buffer at its head all along.
            let read = buffer.withUnsafeMutableBytes { recv(ends[1], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if read > 0 { received += read }
            #expect(queue.heldBytes <= queue.count + OutputQueue.keptCapacity)
        }
        while received < sent {
            let wrote = queue.write(to: ends[0])
            #expect(wrote)
            let read = buffer.withUnsafeMutableBytes { recv(ends[1], $0.baseAddress, $0.count, 0) }
            guard read > 0 else { break }
            received += read
        }
        #expect(received == sent)
        #expect(queue.isEmpty)
    }

    @Test func aClosedPeerFailsTheWrite() {
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        close(ends[1])
        defer { close(ends[0]) }
        var queue = OutputQueue()
        queue.append(message: Array("lost".utf8))
        let wrote = queue.write(to: ends[0])
        #expect(!wrote)
    }

    /// A connected pair: the first end non-blocking with a small send buffer (so writes are partial).
    private static func smallSocketPair() throws -> [Int32] {
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        var small: Int32 = 4096
        setsockopt(ends[0], SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        return ends
    }
}
