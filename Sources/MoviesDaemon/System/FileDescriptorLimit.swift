import Glibc

/// The process's open-file limit (`RLIMIT_NOFILE`, getrlimit(2)).
///
/// systemd starts services with a soft limit of 1024 (and a much higher hard limit), which would
/// cap the daemon below its `MaxConnections=`; like other socket servers, the daemon raises its soft
/// limit towards what it needs, never above the hard limit.
public enum FileDescriptorLimit {
    /// The current soft and hard limits.
    public static func current() -> (soft: UInt64, hard: UInt64) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (0, 0) }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }

    /// Raises the soft limit to at least `needed` (capped at the hard limit); never lowers it.
    /// - Returns: the soft limit in force afterwards.
    @discardableResult
    public static func raise(toAtLeast needed: UInt64) -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let target = min(UInt64(limit.rlim_max), needed)
        guard target > UInt64(limit.rlim_cur) else { return UInt64(limit.rlim_cur) }
        limit.rlim_cur = rlim_t(target)
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return current().soft }
        return target
    }
}
