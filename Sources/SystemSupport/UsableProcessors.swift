import Glibc

/// How many CPUs this process may run on: its affinity mask (`taskset`, systemd's
/// `CPUAffinity=`), not every CPU of the machine.
public enum UsableProcessors {
    /// The CPUs in the process's affinity mask (at least 1): the `Cpus_allowed` mask of
    /// `/proc/self/status` (proc(5)), else the CPUs online.
    public static func count() -> Int {
        if let mask = allowedMask() {
            let bits = mask.utf8.reduce(0) { total, digit in total + (hexValue(digit)?.nonzeroBitCount ?? 0) }
            if bits > 0 { return bits }
        }
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// The hexadecimal digits of the `Cpus_allowed:` line.
    private static func allowedMask() -> String? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("Cpus_allowed:") else { continue }
            return String(text.dropFirst("Cpus_allowed:".count).filter { $0.isHexDigit })
        }
        return nil
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
