import Foundation
import Glibc
import Synchronization

/// A tiny HTTP/1.1 server on 127.0.0.1 with a kernel-assigned port, for `CurlTransport` tests.
/// Each connection gets one scripted answer (or none, to exercise timeouts) and is then closed.
final class LocalHTTPServer: Sendable {
    let port: UInt16
    private let listener: Int32
    private let state = Mutex<(requests: [String], held: [Int32])>(([], []))

    /// An answer that makes the server close the connection with a TCP RST instead of answering.
    static let resetConnection = "\u{0}RESET"

    /// `answer` gets the request head and returns the raw response, or `nil` to never answer
    /// (``resetConnection`` resets the connection).
    /// With `readsRequest: false` the answer is written as soon as a connection is accepted (a
    /// server that is not speaking the client's protocol, e.g. plain text to a TLS client).
    init(readsRequest: Bool = true, answer: @escaping @Sendable (String) -> String?) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        let thread = Thread { [self] in serve(readsRequest: readsRequest, answer) }
        thread.start()
    }

    /// The request heads received, in order.
    var requests: [String] { state.withLock { $0.requests } }

    /// `http://127.0.0.1:<port>/<path>`.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path)")!
    }

    /// Stops accepting and closes held connections.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in state.withLock({ $0.held }) { close(fd) }
    }

    private func serve(readsRequest: Bool, _ answer: @Sendable (String) -> String?) {
        for _ in 0..<64 {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var head = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while readsRequest, head.range(of: Data("\r\n\r\n".utf8)) == nil {
                let count = read(connection, &buffer, buffer.count)
                guard count > 0 else { break }
                head.append(contentsOf: buffer[0..<count])
            }
            let request = String(decoding: head, as: UTF8.self)
            state.withLock { $0.requests.append(request) }
            guard let response = answer(request) else {
                state.withLock { $0.held.append(connection) }
                continue
            }
            if response == Self.resetConnection {
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                close(connection)
                continue
            }
            let bytes = Array(response.utf8)
            _ = bytes.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            close(connection)
        }
    }
}
