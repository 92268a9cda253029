import Glibc

/// CPU time spent by a process (user + system), to divide by the calls of a run: what a call
/// costs the server (`--cpu-pid`, from `/proc/PID/stat`) and the load generator itself
/// (`getrusage`), which share the machine's cores.
enum ProcessCPU {
    /// CPU seconds used by `pid` so far (all its threads), or nil if it cannot be read.
    static func seconds(pid: Int32) -> Double? {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 1_024)
        guard fgets(&line, Int32(line.count), file) != nil else { return nil }
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Fields after the command name (which may hold spaces, and ends at the last ')'):
        // state is field 3, utime 14 and stime 15, in clock ticks.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ticks > 0 ? (user + system) / ticks : nil
    }

    /// CPU seconds used by this process so far (user + system).
    static func ownSeconds() -> Double {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
