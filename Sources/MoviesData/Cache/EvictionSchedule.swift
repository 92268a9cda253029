/// Decides when to enforce the cache's byte budget: once every `interval` successful writes, so
/// eviction stays cheap while the cache cannot outgrow its budget by more than a few responses.
public actor EvictionSchedule {
    private let interval: Int
    private var writesSinceEviction = 0

    /// Creates a schedule that asks for an eviction pass every `interval` writes (at least 1).
    public init(every interval: Int = 32) {
        self.interval = max(1, interval)
    }

    /// Records one write; returns `true` when an eviction pass is due now.
    public func recordWrite() -> Bool {
        writesSinceEviction += 1
        guard writesSinceEviction >= interval else { return false }
        writesSinceEviction = 0
        return true
    }
}
