import Glibc
import Synchronization
import SystemSupport

/// Reads a process's resident set size (VmRSS in /proc/PID/status), and samples its peak over
/// a run on a background thread.
final class ResidentMemory: Sendable {
    private struct Sampling {
        var peak = 0
        var stopping = false
    }

    private let pid: Int32
    private let sampling = Mutex(Sampling())
    private let thread = Mutex<NativeThread?>(nil)

    /// Watches `pid`.
    init(pid: Int32) {
        self.pid = pid
    }

    /// VmRSS of `pid` in KiB, or nil if it cannot be read.
    static func current(pid: Int32) -> Int? {
        guard let file = fopen("/proc/\(pid)/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("VmRSS:") else { continue }
            return Int(text.dropFirst(6).filter { $0.isNumber })
        }
        return nil
    }

    /// Starts sampling every 20 ms.
    func start() {
        let started = NativeThread { [self] in
            while true {
                let sample = ResidentMemory.current(pid: pid) ?? 0
                let done = sampling.withLock { sampling in
                    sampling.peak = max(sampling.peak, sample)
                    return sampling.stopping
                }
                if done { return }
                usleep(20_000)
            }
        }
        thread.withLock { $0 = started }
    }

    /// Stops sampling; returns the peak VmRSS in KiB.
    func stop() -> Int {
        sampling.withLock { $0.stopping = true }
        thread.withLock { $0 }?.join()
        return sampling.withLock { $0.peak }
    }
}
