import FoundationEssentials
import MoviesDomain

/// One cacheable TMDB resource as the loader sees it: where it is stored, how to fetch it and how
/// to turn the stored bytes into a domain value.
struct CachedResource<Value: Sendable>: Sendable {
    /// The canonical cache key (see `CacheKey`).
    var key: String
    var resourceClass: ResourceClass
    var request: RemoteRequest
    /// Decodes a stored (or just received) entry; throws for a malformed body.
    var decode: @Sendable (StoredResponse) throws -> Value
    /// The value's JSON in the interface's shape, stored with the response (`nil`: none, as for posters).
    var reply: @Sendable (Value) -> Data? = { _ in nil }
    /// The error answered while a negative (404) entry is fresh.
    var notFound: MoviesError
}

/// What one shared remote fetch produced: the entry as now stored, and how it was obtained.
struct FetchOutcome: Sendable {
    var entry: StoredResponse
    /// The entry's value, when the fetch already decoded it (the flight is keyed by resource, so it
    /// is of the resource's type); `nil` to decode `entry`.
    var value: (any Sendable)?
    /// `.network` for a new body, `.revalidated` for a 304.
    var origin: Freshness.Origin
    /// Why the response could not be stored, when it could not.
    var storageFault: StorageFault?
}

/// A cache read: nothing usable, an authoritative 404, or a decoded value.
enum CachedLookup<Value: Sendable>: Sendable {
    case missing
    case negative(StoredResponse)
    case value(Value, StoredResponse)
}
