import FoundationEssentials
import MoviesDomain
import MoviesWire

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
    var reply: @Sendable (Value) -> [UInt8]? = { _ in nil }
    /// Reads such a stored reply back into the value (`nil`: the body is always decoded).
    var decodeReply: (@Sendable ([UInt8]) throws -> Value)?
    /// The error answered while a negative (404) entry is fresh.
    var notFound: MoviesError

    /// The value of a stored entry, and its reply bytes when they are current: decoded from the
    /// reply when it is of today's `WireCoding.version` (the shape replies are sent in), else
    /// from TMDB's body. Throws for a malformed body.
    func stored(_ entry: StoredResponse) throws -> (value: Value, encoded: [UInt8]?) {
        if let decodeReply, let reply = entry.reply(atVersion: WireCoding.version), let value = try? decodeReply(reply) {
            return (value, reply)
        }
        return (try decode(entry), nil)
    }
}

/// What one shared remote fetch produced: the entry as now stored, and how it was obtained.
struct FetchOutcome: Sendable {
    var entry: StoredResponse
    /// The entry's value, when the fetch already decoded it (the flight is keyed by resource, so it
    /// is of the resource's type); `nil` to decode `entry`.
    var value: (any Sendable)?
    /// The value's reply bytes as stored with it, when `value` is set.
    var encoded: [UInt8]?
    /// `.network` for a new body, `.revalidated` for a 304.
    var origin: Freshness.Origin
    /// Why the response could not be stored, when it could not.
    var storageFault: StorageFault?
}

/// A cache read: nothing usable, an authoritative 404, or a decoded value.
enum CachedLookup<Value: Sendable>: Sendable {
    case missing
    case negative(StoredResponse)
    case value(Value, StoredResponse, encoded: [UInt8]?)
}
