import Glibc

extension TMDBStubServer {
    /// Reads requests from `fd` and answers them until the client or the server closes it.
    func serveConnection(_ fd: Int32, role: ServerState.Role) -> ConnectionEnding {
        var buffer: [UInt8] = []
        while true {
            let parsed: (HTTPRequest, Int)?
            do {
                parsed = try HTTPRequestParser.parse(buffer, maxHeadBytes: configuration.maxHeaderBytes, maxBodyBytes: 1 << 20)
            } catch {
                let status = error == .headTooLarge ? 431 : 400
                _ = TCPSocket.writeAll(fd, HTTPResponse(status: status).serialized(keepAlive: false))
                drainBeforeClose(fd)
                return .close
            }
            guard let (request, used) = parsed else {
                guard readMore(fd, into: &buffer) else { return .close }
                continue
            }
            buffer.removeFirst(used)
            let outcome = role == .main ? answerMain(request, fd: fd) : answerControl(request, fd: fd)
            switch outcome {
            case .keepOpen: continue
            case .end(let ending): return ending
            }
        }
    }

    /// Appends the next bytes from `fd`; false on end of stream, error, idle timeout or server stop.
    private func readMore(_ fd: Int32, into buffer: inout [UInt8]) -> Bool {
        let pollsPerSecond = 10
        for _ in 0..<(configuration.idleTimeoutSeconds * pollsPerSecond) {
            guard state.withLock({ $0.isRunning }) else { return false }
            guard TCPSocket.waitReadable(fd, milliseconds: Int32(1000 / pollsPerSecond)) else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        return false
    }

    /// Half-closes and discards what the client is still sending (bounded), so closing with unread
    /// input does not turn into an RST that would destroy the error answer before the client reads it.
    private func drainBeforeClose(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        var chunk = [UInt8](repeating: 0, count: 16_384)
        for _ in 0..<64 {
            guard TCPSocket.waitReadable(fd, milliseconds: 100) else { return }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
        }
    }

    /// Blocks without answering until the client hangs up or the server stops or goes down.
    private func hang(_ fd: Int32) {
        var ignored: [UInt8] = []
        while readMore(fd, into: &ignored) { ignored.removeAll() }
    }

    private func answerMain(_ request: HTTPRequest, fd: Int32) -> RequestOutcome {
        let (faults, port) = state.withLock { state in
            state.requestCounts[request.path, default: 0] += 1
            state.totalRequests += 1
            return (state.faults, state.port)
        }
        let plan = FaultPlan(faults: faults, route: AccountRoute(method: request.method, path: request.path))
        if faults.down { return .end(.close) }
        if plan.hang {
            hang(fd)
            return .end(.close)
        }
        if plan.reset { return .end(.reset) }
        if faults.latencyMs > 0 { usleep(UInt32(clamping: faults.latencyMs * 1000)) }
        if request.path.hasPrefix("/p/exports/") {
            let response = exports.response(path: request.path, faults: faults)
            guard writeThrottled(fd, response.serialized(keepAlive: request.wantsKeepAlive), bytesPerSecond: faults.exportBytesPerSecond),
                  request.wantsKeepAlive else { return .end(.close) }
            return .keepOpen
        }
        var response: HTTPResponse
        if let injected = plan.injectedResponse {
            response = injected
        } else {
            response = router.response(to: request, port: port, sessionsExpired: faults.sessionExpired)
            if plan.dropAfterApply { return .end(.reset) }
        }
        let keepAlive = request.wantsKeepAlive && !plan.truncateBody
        plan.corrupt(&response)
        guard TCPSocket.writeAll(fd, response.serialized(keepAlive: keepAlive)), keepAlive else { return .end(.close) }
        return .keepOpen
    }

    /// Writes `bytes`, at most `bytesPerSecond` a second when above 0 (in tenths of a second).
    private func writeThrottled(_ fd: Int32, _ bytes: [UInt8], bytesPerSecond: Int) -> Bool {
        guard bytesPerSecond > 0 else { return TCPSocket.writeAll(fd, bytes) }
        let piece = max(1, bytesPerSecond / 10)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            guard TCPSocket.writeAll(fd, Array(bytes[offset..<end])) else { return false }
            offset = end
            if offset < bytes.count { usleep(100_000) }
        }
        return true
    }

    private func answerControl(_ request: HTTPRequest, fd: Int32) -> RequestOutcome {
        let response = ControlRouter(server: self).response(to: request)
        let keepAlive = request.wantsKeepAlive
        guard TCPSocket.writeAll(fd, response.serialized(keepAlive: keepAlive)), keepAlive else { return .end(.close) }
        return .keepOpen
    }
}

/// What happens to a connection after one request.
enum RequestOutcome {
    /// Read the next request.
    case keepOpen
    /// Close the connection this way.
    case end(ConnectionEnding)
}
