import Glibc

/// Reads a process's resident set size (VmRSS in /proc/PID/status), and samples its peak over
/// a run on a background thread.
final class ResidentMemory: @unchecked Sendable {
    private let pid: Int32
    private var lock = pthread_mutex_t()
    private var peak = 0
    private var stopping = false
    private var thread: NativeThread?

    /// Watches `pid`.
    init(pid: Int32) {
        self.pid = pid
        pthread_mutex_init(&lock, nil)
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
        thread = NativeThread { [self] in
            while true {
                let sample = ResidentMemory.current(pid: pid) ?? 0
                pthread_mutex_lock(&lock)
                peak = max(peak, sample)
                let done = stopping
                pthread_mutex_unlock(&lock)
                if done { return }
                usleep(20_000)
            }
        }
    }

    /// Stops sampling; returns the peak VmRSS in KiB.
    func stop() -> Int {
        pthread_mutex_lock(&lock)
        stopping = true
        pthread_mutex_unlock(&lock)
        thread?.join()
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return peak
    }
}
