import FoundationEssentials

/// A cached value in the shape the interface sends it: its JSON (the value's `Codable` form under
/// `WireCoding`), written once when the response was stored, and when it was fetched.
///
/// What a cached reply is made of: answering it is a splice of `json` and a freshness, without
/// decoding the stored response or encoding the value again.
public struct CachedAnswer: Sendable, Hashable {
    /// The value's JSON, as `WireCoding.makeEncoder()` writes it.
    public var json: [UInt8]
    /// When TMDB sent (or last confirmed) the response.
    public var fetchedAt: Date
    /// When it stops being fresh.
    public var expiresAt: Date

    /// Creates an answer.
    public init(json: [UInt8], fetchedAt: Date, expiresAt: Date) {
        self.json = json
        self.fetchedAt = fetchedAt
        self.expiresAt = expiresAt
    }

    /// Whether the answer is past its fresh lifetime at `now`.
    public func isStale(at now: Date) -> Bool { now >= expiresAt }

    /// Whole seconds since `fetchedAt` at `now` (never negative).
    public func ageSeconds(at now: Date) -> Int { max(0, Int(now.timeIntervalSince(fetchedAt))) }

    /// The freshness of answering it from the cache at `now`.
    public func freshness(at now: Date) -> Freshness {
        Freshness(origin: .cache, fetchedAt: fetchedAt, ageSeconds: ageSeconds(at: now), stale: isStale(at: now))
    }
}
