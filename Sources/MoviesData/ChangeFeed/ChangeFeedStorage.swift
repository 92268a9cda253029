import FoundationEssentials
import MoviesDomain

/// Port: the change feed's cursor and what applying the feed does to the cache, each in one
/// transaction of the cache database (`SQLiteChangeFeedStorage`).
public protocol ChangeFeedStorage: Sendable {
    /// The persisted cursor and last run (`ChangeFeedStatus()` before the first run).
    func changeFeedStatus() async throws -> ChangeFeedStatus

    /// Applies the changes one run read, and moves the cursor, in one transaction:
    /// - cached movies in `changes.changedIDs` that are not pinned, and search pages listing any
    ///   changed movie, become stale (kept for offline use);
    /// - cached movies not listed, known current since `changes.coveredSince` (fetched or last
    ///   validated then or later), stay fresh until `changes.validUntil`;
    /// - with `coveredSince == nil` (the cursor could not be bridged), nothing is validated and
    ///   every pinned movie counts as changed;
    /// - the cursor becomes `changes.syncedThrough`, and `status` the last run.
    /// - Returns: the ids of the pinned movies that changed (the caller fetches them again, then
    ///   validates or invalidates them), and the counts for the status.
    func applyChanges(_ changes: ChangeFeedChanges, status: ChangeFeedStatus) async throws -> ChangeFeedApplied

    /// Keeps the movies' cached details fresh until `date` (confirmed current at `now`), or makes
    /// them stale (`until == nil`).
    func setMoviesFresh(_ ids: [Int], until date: Date?, now: Date) async throws

    /// Records `status` as the last run, keeping the cursor as it is.
    func recordChangeFeedRun(_ status: ChangeFeedStatus) async throws
}

/// What one run of the change feed read.
public struct ChangeFeedChanges: Sendable, Hashable {
    /// Every movie id the feed listed in the windows read.
    public var changedIDs: Set<Int>
    /// The start of the time the windows cover; `nil` when the cursor could not be bridged.
    public var coveredSince: Date?
    /// How long movies confirmed unchanged stay fresh.
    public var validUntil: Date
    /// The run's time.
    public var now: Date
    /// The new cursor (UTC date `YYYY-MM-DD`).
    public var syncedThrough: String

    /// Creates the changes of one run.
    public init(changedIDs: Set<Int>, coveredSince: Date?, validUntil: Date, now: Date, syncedThrough: String) {
        self.changedIDs = changedIDs
        self.coveredSince = coveredSince
        self.validUntil = validUntil
        self.now = now
        self.syncedThrough = syncedThrough
    }
}

/// What applying a run's changes did.
public struct ChangeFeedApplied: Sendable, Hashable {
    /// Pinned movies that changed (or every pinned movie, after a gap), for the caller to fetch again.
    public var pinnedChanged: [Int]
    /// Cached movies among the changed ones.
    public var changedCached: Int
    /// Cached movies kept fresh without a request.
    public var validated: Int

    /// Creates a result.
    public init(pinnedChanged: [Int], changedCached: Int, validated: Int) {
        self.pinnedChanged = pinnedChanged
        self.changedCached = changedCached
        self.validated = validated
    }
}
