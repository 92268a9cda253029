/// What pinning a list of entries for one owner did (`ResponseStorage.pin`).
public struct PinResult: Sendable, Hashable {
    /// The owner's pinned bytes afterwards.
    public var pinnedBytes: Int64
    /// Cached entries of the list left unpinned: the first that did not fit the owner's budget
    /// and those after it.
    public var refused: Int

    /// Creates a result.
    public init(pinnedBytes: Int64, refused: Int) {
        self.pinnedBytes = pinnedBytes
        self.refused = refused
    }
}
