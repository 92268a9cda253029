import Foundation

/// How long a test waits on another process. One constant, generous enough for a machine under full
/// load (`stress-ng --cpu 2` on 2 cores): these bound a hang, they never time anything. A test that
/// needs a shorter wait asserts an outcome instead.
public enum ProcessDeadline {
    /// Seconds a process may take to start, answer one call, or exit.
    public static let seconds: Double = 60
    /// The same bound in whole seconds, for clients that wait for a reply (`VarlinkClient(timeoutSeconds:)`).
    public static var replySeconds: Int { Int(seconds) }
    /// Seconds a whole helper script (many processes, hundreds of calls) may take.
    public static var scriptSeconds: Double { seconds * 5 }

    /// Polls `condition` (about every 10 ms) until it holds or `seconds` pass; for waiting on
    /// another process only. Returns whether it held.
    public static func waitUntil(seconds: Double = ProcessDeadline.seconds, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}
