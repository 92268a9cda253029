import Glibc

/// A blocking Varlink client on a Unix socket, for command-line tools.
///
/// Starts no threads: it writes with send(2) and waits with poll(2). Not thread-safe; use one
/// client per thread. Calls on one client run one after another.
public final class VarlinkClient {
    private let path: String
    private let timeoutMilliseconds: Int32
    private var fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to the server at `unixPath`. `timeoutSeconds` bounds each wait for the next reply
    /// (nil or 0: wait forever).
    public convenience init(unixPath: String, timeoutSeconds: Int? = nil) throws(VarlinkClientError) {
        try self.init(unixPath: unixPath, timeoutMilliseconds: timeoutSeconds.map { $0.multipliedReportingOverflow(by: 1000).partialValue })
    }

    /// Connects to the server at `unixPath`. `timeoutMilliseconds` bounds the connection (a
    /// server whose backlog is full) and each wait for the next reply (nil or 0: wait forever).
    public init(unixPath: String, timeoutMilliseconds: Int?) throws(VarlinkClientError) {
        path = unixPath
        let limit: Int32? = timeoutMilliseconds.flatMap { $0 > 0 ? Int32(clamping: $0) : nil }
        self.timeoutMilliseconds = limit ?? -1
        guard let address = SocketOptions.unixAddress(path: unixPath) else {
            throw VarlinkClientError(code: .connectFailed(ENAMETOOLONG), path: unixPath)
        }
        fd = SocketOptions.unixStreamSocket()
        guard fd >= 0 else { throw VarlinkClientError(code: .connectFailed(errno), path: unixPath) }
        if let limit {
            // connect(2) on a Unix socket waits for room in the server's backlog up to SO_SNDTIMEO.
            var time = timeval(tv_sec: Int(limit / 1000), tv_usec: Int(limit % 1000) * 1000)
            _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        }
        let failure = SocketOptions.connect(fd, to: address)
        guard failure == 0 else {
            Glibc.close(fd)
            fd = -1
            throw VarlinkClientError(code: .connectFailed(failure), path: unixPath)
        }
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Calls `method` and hands every reply to `onReply`, up to and including the final one
    /// (`continues == false`, or an error reply, which is delivered too, not thrown).
    /// With `oneway`, returns once the call is sent. Throws ``VarlinkClientError`` for transport
    /// failures, and whatever `onReply` throws (the connection is then closed).
    public func call(_ method: String, parameters: [String: JSONValue] = [:], more: Bool = false, oneway: Bool = false, onReply: (VarlinkReply) throws -> Void) throws {
        guard fd >= 0 else { throw VarlinkClientError(code: .closed, path: path) }
        var message = VarlinkMessage.encodeCall(method: method, parameters: parameters, more: more, oneway: oneway)
        message.append(0)
        do {
            do {
                try sendAll(message)
            } catch let sendError {
                // A server refusing the connection (a limit) says why, then closes: read it.
                guard !oneway, let bytes = try? receiveMessage(), let reply = VarlinkMessage.decodeReply(bytes), reply.error != nil else {
                    throw sendError
                }
                try onReply(reply)
                close()
                return
            }
            if oneway { return }
            while true {
                let bytes = try receiveMessage()
                guard let reply = VarlinkMessage.decodeReply(bytes) else {
                    throw VarlinkClientError(code: .protocolViolation, path: path)
                }
                try onReply(reply)
                if reply.error != nil || !reply.continues { return }
            }
        } catch {
            close()
            throw error
        }
    }

    /// Closes the connection; later calls throw ``VarlinkClientError/Code/closed``.
    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    private func sendAll(_ bytes: [UInt8]) throws(VarlinkClientError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                throw VarlinkClientError(code: .closed, path: path)
            }
        }
    }

    private func receiveMessage() throws(VarlinkClientError) -> [UInt8] {
        var scanned = 0
        while true {
            if let terminator = buffer[scanned...].firstIndex(of: 0) {
                let message = Array(buffer[..<terminator])
                buffer.removeFirst(terminator + 1)
                return message
            }
            scanned = buffer.count
            try waitUntilReadable()
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
            } else if count < 0, errno == EINTR || errno == EAGAIN {
                continue
            } else {
                throw VarlinkClientError(code: .closed, path: path)
            }
        }
    }

    private func waitUntilReadable() throws(VarlinkClientError) {
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&request, 1, timeoutMilliseconds)
            if ready > 0 { return }
            if ready == 0 { throw VarlinkClientError(code: .timedOut, path: path) }
            if errno != EINTR { throw VarlinkClientError(code: .closed, path: path) }
        }
    }
}
