import FoundationEssentials

/// Where an answer came from and how old it is.
public struct Freshness: Sendable, Hashable, Codable {
    /// The source of an answer.
    public enum Origin: String, Sendable, Hashable, Codable {
        /// Read from the local cache.
        case cache
        /// Fetched from TMDB just now.
        case network
        /// TMDB answered 304 Not Modified: the cached copy was confirmed current.
        case revalidated
        /// Found in the local index of every cached movie: TMDB could not answer a query that has
        /// no cached page (or the policy was `local_only`); `fetchedAt` is when the oldest movie on
        /// the page was fetched, and the answer is always `stale`.
        case localIndex = "local_index"
    }

    public var origin: Origin
    /// When the data was fetched from (or last confirmed by) TMDB.
    public var fetchedAt: Date
    /// Seconds between `fetchedAt` and the moment of the answer.
    public var ageSeconds: Int
    /// Whether the data is past its fresh lifetime.
    public var stale: Bool
    /// Why fresh data could not be had, when a fetch failed or was skipped.
    public var remoteError: String?
    /// `false` when a network answer could not be stored in the cache (it will not be available
    /// offline); `nil` when it was stored or the answer came from the cache.
    public var stored: Bool?
    /// Why the answer was not stored, with `stored == false`.
    public var storageFault: StorageFault?

    /// Creates a freshness record.
    public init(
        origin: Origin, fetchedAt: Date, ageSeconds: Int, stale: Bool, remoteError: String? = nil,
        stored: Bool? = nil, storageFault: StorageFault? = nil
    ) {
        self.stored = stored
        self.storageFault = storageFault
        self.origin = origin
        self.fetchedAt = fetchedAt
        self.ageSeconds = ageSeconds
        self.stale = stale
        self.remoteError = remoteError
    }
}
