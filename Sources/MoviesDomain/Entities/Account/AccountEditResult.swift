/// What became of an edit: kept in the outbox (and whether TMDB already has it).
public struct AccountEditResult: Sendable, Hashable {
    /// The outbox entry.
    public var entry: PendingEdit
    /// Whether TMDB already accepted it.
    public var isOnTMDB: Bool { entry.state == .delivered }
    /// The outbox's state after the edit.
    public var sync: AccountSyncStatus

    /// Creates a result.
    public init(entry: PendingEdit, sync: AccountSyncStatus) {
        self.entry = entry
        self.sync = sync
    }
}
