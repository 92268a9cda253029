/// How long an end-to-end test waits on another process. One constant, generous enough for a
/// machine under full load (`stress-ng --cpu 2` on 2 cores): these bound a hang, they never time
/// anything. A test needing a shorter wait asserts an outcome instead.
enum ProcessDeadline {
    /// Seconds a process may take to start, answer one call, or exit.
    static let seconds: Double = 60
    /// Seconds a whole helper script (many processes, hundreds of calls) may take.
    static var scriptSeconds: Double { seconds * 5 }
}
