import Foundation
import Synchronization

/// A Unix datagram socket that collects messages (a stand-in for systemd's NOTIFY_SOCKET).
final class DatagramReceiver: Sendable {
    let path: String
    private let fd: Int32
    private let messages = Mutex<[String]>([])
    private let closed = Atomic(false)

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw SandboxError("socket() failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else { throw SandboxError("bind(\(path)) failed: errno \(errno)") }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        Thread { [weak self] in self?.receiveLoop() }.start()
    }

    var received: [String] { messages.withLock { $0 } }

    private func receiveLoop() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if closed.load(ordering: .acquiring) { return }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 {
                let text = String(decoding: buffer[0..<count], as: UTF8.self)
                messages.withLock { $0.append(text) }
            }
        }
    }

    func close() {
        closed.store(true, ordering: .releasing)
        usleep(150_000)
        Glibc.close(fd)
        unlink(path)
    }
}
