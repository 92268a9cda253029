import MoviesTestSupport
import Glibc
import Varlink

/// A raw client socket for sending arbitrary bytes and reading NUL-terminated replies.
final class RawConnection {
    enum Failure: Error { case connect(Int32), send, timedOut, closed, badReply }

    let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = UnixSocketProbe.connect(path)
        guard fd >= 0 else { throw Failure.connect(errno) }
    }

    deinit { close(fd) }

    /// Shuts the socket down both ways, as a client's close does for the server (which sees it
    /// hang up), while the descriptor stays this object's.
    func hangUp() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Sends `bytes`, meant for what fits in the socket buffer: should the peer stop reading, the
    /// wait for room is bounded (`ProcessDeadline.seconds`) and then throws `timedOut`. Larger
    /// payloads go through ``sendLarge(_:)``, which holds no thread while it waits.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            if let written = try sendSome(bytes, from: offset) {
                offset += written
            } else {
                var request = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                guard poll(&request, 1, Int32(ProcessDeadline.seconds * 1_000)) > 0 else { throw Failure.timedOut }
            }
        }
    }

    /// Sends `bytes` however large, without blocking a thread while the peer reads them (the
    /// in-process server's first reads may wait for one of the few threads running tasks);
    /// bounded by `ProcessDeadline.seconds`.
    func sendLarge(_ bytes: [UInt8]) async throws {
        let deadline = ContinuousClock.now + .seconds(ProcessDeadline.seconds)
        var offset = 0
        while offset < bytes.count {
            if let written = try sendSome(bytes, from: offset) {
                offset += written
            } else {
                guard ContinuousClock.now < deadline else { throw Failure.timedOut }
                try await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    /// One non-blocking write of `bytes` from `offset`: how many bytes went, or nil when the
    /// socket has no room (or the call was interrupted).
    private func sendSome(_ bytes: [UInt8], from offset: Int) throws -> Int? {
        let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        if written > 0 { return written }
        guard errno == EAGAIN || errno == EINTR else { throw Failure.send }
        return nil
    }

    /// Sends as much of `bytes` as the peer takes: stops when a write has waited `stallMilliseconds`
    /// for room (the peer stopped reading). Returns how many bytes were sent.
    func sendUntilStalled(_ bytes: [UInt8], stallMilliseconds: Int32 = 1_000) -> Int {
        var offset = 0
        while offset < bytes.count {
            var request = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&request, 1, stallMilliseconds) > 0 else { break }
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            if written > 0 { offset += written } else if errno != EAGAIN && errno != EINTR { break }
        }
        return offset
    }

    /// Sends `text` followed by a NUL.
    func sendMessage(_ text: String) throws {
        try send(Array(text.utf8) + [0])
    }

    /// Sends a call built from its parts.
    func call(_ method: String, _ parameters: [String: JSONValue] = [:], more: Bool = false, oneway: Bool = false) throws {
        var message: [String: JSONValue] = ["method": .string(method), "parameters": .object(parameters)]
        if more { message["more"] = .bool(true) }
        if oneway { message["oneway"] = .bool(true) }
        try send(JSONValue.object(message).serialized() + [0])
    }

    /// Reads the next message, waiting up to `timeoutMilliseconds` without blocking a thread.
    func readMessage(timeoutMilliseconds: Int = Int(ProcessDeadline.seconds * 1_000)) async throws -> JSONValue {
        let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = Array(buffer[..<end])
                buffer.removeFirst(end + 1)
                do { return try JSONValue.parse(message) } catch { throw Failure.badReply }
            }
            try await fill(until: deadline)
        }
    }

    /// Whether the server closes the connection within `timeoutMilliseconds` (skipping any replies).
    func isClosedByServer(timeoutMilliseconds: Int = Int(ProcessDeadline.seconds * 1_000)) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
        while true {
            do { try await fill(until: deadline) } catch Failure.closed { return true } catch { return false }
        }
    }

    /// Whether a reply or a close arrives within `milliseconds`.
    func hasInput(withinMilliseconds milliseconds: Int) async -> Bool {
        do {
            try await fill(until: ContinuousClock.now + .milliseconds(milliseconds))
            return true
        } catch Failure.closed {
            return true
        } catch {
            return false
        }
    }

    private func fill(until deadline: ContinuousClock.Instant) async throws {
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&request, 1, 0) <= 0 {
            guard ContinuousClock.now < deadline else { throw Failure.timedOut }
            try await Task.sleep(for: .milliseconds(2))
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw Failure.closed }
        buffer.append(contentsOf: chunk[0..<count])
    }
}
