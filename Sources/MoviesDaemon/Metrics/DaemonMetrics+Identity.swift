import FoundationEssentials
import Varlink

/// The families that say which daemon this is: its version, build and start.
extension DaemonMetrics {
    static let identityFamilies: [DaemonMetricFamily] = [
        .single("version", .string, "The daemon's version") { .string($0.version) },
        .single("build", .string, "How the daemon was built: release or debug") { .string($0.build) },
        .single("start_time_seconds", .gauge, "When the daemon started, in seconds since the Unix epoch") { reading in
            .unsigned(UInt64(max(0, reading.startedAt.timeIntervalSince1970)))
        },
    ]
}
