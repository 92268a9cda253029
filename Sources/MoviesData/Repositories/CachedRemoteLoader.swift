import FoundationEssentials
import MoviesDomain
import MoviesWire

/// The cached-then-remote engine shared by the repositories: reads the cache, applies a
/// `FetchPolicy`, fetches through one shared flight per key and stores what TMDB sent.
///
/// Each task is one async function that emits its updates and returns (or throws a `MoviesError`);
/// cancelling the calling task stops it.
struct CachedRemoteLoader: Sendable {
    let storage: any ResponseStorage
    let remote: any MoviesRemote
    let health: RemoteHealth
    let policy: CachePolicy
    let now: @Sendable () -> Date
    let flights: SingleFlight<String, FetchOutcome>
    let evictionSchedule: EvictionSchedule
    /// The database's health: every failed read or write is recorded (and logged once per cause).
    let storageHealth: StorageHealthMonitor

    /// Emits the policy's updates for `resource` through `emit`; throws the final error, if any,
    /// as a `MoviesError`. Who asks (``RemoteDemand/current``, else the policy: `network_only` is
    /// explicit, the others interactive) decides how a retry pause applies.
    func run<Value: Sendable>(
        _ resource: CachedResource<Value>, fetchPolicy: FetchPolicy, maxStaleSeconds: Int?,
        emit: (Fetched<Value>) async -> Void
    ) async throws {
        let demand = RemoteDemand.current ?? (fetchPolicy == .networkOnly ? .explicit : .interactive)
        do {
            try await produce(resource, fetchPolicy: fetchPolicy, maxStaleSeconds: maxStaleSeconds, demand: demand, emit: emit)
        } catch {
            throw MoviesError(wrapping: error)
        }
    }

    /// Emits the policy's sequence of updates through `emit`; throws the final error, if any.
    func produce<Value: Sendable>(
        _ resource: CachedResource<Value>, fetchPolicy: FetchPolicy, maxStaleSeconds: Int?, demand: RemoteDemand,
        emit: (Fetched<Value>) async -> Void
    ) async throws {
        let maxStale = maxStaleSeconds ?? policy.maxStale(of: resource.resourceClass)
        switch fetchPolicy {
        case .cacheOnly, .localOnly:
            // `local_only` is `Search`'s (its repository answers it from the index); for a
            // single resource it means the same as `cache_only`: never the network.
            let cached: CachedLookup<Value>
            do {
                cached = try await lookup(resource)
            } catch {
                throw storageHealth.recordFailure(error, during: "reading the cache", operation: .read)
            }
            switch cached {
            case .value(let value, let entry, let encoded):
                await emit(cachedUpdate(value, entry, encoded: encoded))
            case .negative:
                throw resource.notFound
            case .missing:
                throw MoviesError.notCached("nothing cached for this request and the policy forbids the network")
            }
        case .networkOnly:
            await emit(try await fetch(resource, demand: demand))
        case .cacheThenNetwork:
            let cached = await lookupRecordingFailure(resource)
            let started = now()
            if case .negative(let entry) = cached, !entry.isStale(at: started) { throw resource.notFound }
            if case .value(let value, let entry, let encoded) = cached, isServable(entry, at: started, maxStale: maxStale) {
                await emit(cachedUpdate(value, entry, encoded: encoded))
            }
            await emit(try await fetch(resource, demand: demand))
        case .cacheFirst:
            let cached = await lookupRecordingFailure(resource)
            let started = now()
            if case .negative(let entry) = cached, !entry.isStale(at: started) { throw resource.notFound }
            if case .value(let value, let entry, let encoded) = cached, !entry.isStale(at: started) {
                await emit(cachedUpdate(value, entry, encoded: encoded))
                return
            }
            do {
                await emit(try await fetch(resource, demand: demand))
            } catch {
                let failure = MoviesError(wrapping: error)
                guard failure.code != .cancelled,
                      case .value(let value, let entry, let encoded) = cached,
                      isServable(entry, at: now(), maxStale: maxStale) else { throw failure }
                await emit(cachedUpdate(value, entry, encoded: encoded, remoteError: failure.message))
            }
        }
    }

    /// The cached value of `resource` in the interface's shape, fresh or stale: the stored reply
    /// JSON, or, for an entry stored before replies were, the body decoded and encoded once.
    /// `nil` on a miss, a negative or corrupt entry, or a storage error (recorded).
    func cachedAnswer<Value: Sendable>(_ resource: CachedResource<Value>) async -> CachedAnswer? {
        let entry: StoredResponse?
        do {
            entry = try await storage.response(forKey: resource.key)
        } catch {
            storageHealth.recordFailure(error, during: "reading the cache", operation: .read)
            return nil
        }
        guard let entry, entry.httpStatus == 200 else { return nil }
        if let json = entry.reply(atVersion: WireCoding.version) {
            return CachedAnswer(json: json, fetchedAt: entry.fetchedAt, expiresAt: entry.expiresAt)
        }
        guard let json = (try? resource.decode(entry)).flatMap(resource.reply) else { return nil }
        await upgradeReply(of: entry, to: json)
        return CachedAnswer(json: json, fetchedAt: entry.fetchedAt, expiresAt: entry.expiresAt)
    }

    /// The cached entry for `resource`; a corrupt body is a miss.
    func lookup<Value: Sendable>(_ resource: CachedResource<Value>) async throws -> CachedLookup<Value> {
        guard let entry = try await storage.response(forKey: resource.key) else { return .missing }
        if entry.httpStatus == 404 { return .negative(entry) }
        guard entry.httpStatus == 200, let stored = try? resource.stored(entry) else { return .missing }
        guard stored.encoded == nil, resource.decodeReply != nil, let json = resource.reply(stored.value) else {
            return .value(stored.value, entry, encoded: stored.encoded)
        }
        await upgradeReply(of: entry, to: json)
        return .value(stored.value, entry, encoded: json)
    }

    /// Stores `json`, the value of `entry` (read from its body: stored before replies were, or in
    /// an older shape) in today's shape, with it: decoded once, then read as a reply, and from
    /// memory. Not while the cache database has a fault (locked by another process, full,
    /// damaged): a read never waits on a write that cannot happen. A failure changes nothing (the
    /// body is decoded again next time).
    func upgradeReply(of entry: StoredResponse, to json: [UInt8]) async {
        guard storageHealth.state(of: .cache) == .ok else { return }
        try? await storage.upgradeReply(key: entry.key, fetchedAt: entry.fetchedAt, reply: json, version: WireCoding.version)
    }

    /// `lookup`, with an unreadable cache recorded (and logged once) and treated as a miss, so the
    /// network can still answer.
    func lookupRecordingFailure<Value: Sendable>(_ resource: CachedResource<Value>) async -> CachedLookup<Value> {
        do {
            return try await lookup(resource)
        } catch {
            storageHealth.recordFailure(error, during: "reading the cache", operation: .read)
            return .missing
        }
    }

    /// Whether a cached entry may still be served after its fresh lifetime (within `maxStale`).
    func isServable(_ entry: StoredResponse, at date: Date, maxStale: Int) -> Bool {
        date <= entry.expiresAt.addingTimeInterval(Double(max(0, maxStale)))
    }

    /// An update from the cache, with its age and stale flag.
    func cachedUpdate<Value: Sendable>(_ value: Value, _ entry: StoredResponse, encoded: [UInt8]?, remoteError: String? = nil) -> Fetched<Value> {
        let date = now()
        let freshness = Freshness(
            origin: .cache, fetchedAt: entry.fetchedAt, ageSeconds: entry.ageSeconds(at: date),
            stale: entry.isStale(at: date), remoteError: remoteError)
        return Fetched(value: value, freshness: freshness, encoded: encoded)
    }

    /// Fetches `resource` through the key's shared flight and decodes the result.
    func fetch<Value: Sendable>(_ resource: CachedResource<Value>, demand: RemoteDemand) async throws -> Fetched<Value> {
        // Checked once, before joining a flight: a fetch that is hanging (and marked the remote
        // offline) is not joined, so the caller answers from the cache at once; and a user's call
        // let through as the pause's probe is counted once.
        if let gated = await health.gate(for: demand) { throw gated }
        // Every caller waits at most the answer deadline (the slow-call mark), whether it started
        // the flight or joined it; the flight goes on and stores what TMDB sends. Not for an image:
        // it may take longer than the deadline on a slow link while the API is fine. Not for
        // background work either (a refresh's steps, the change feed): nobody waits on it, and on a
        // slow link it must get TMDB's answer, bounded by the request's own deadline.
        let patience: SingleFlight<String, FetchOutcome>.Patience?
        if case .image = resource.request {
            patience = nil
        } else {
            patience = demand == .background ? nil : health.slowCallPatience
        }
        let outcome: FetchOutcome
        do {
            outcome = try await flights.run(resource.key, patience: patience) { try await fetchAndStore(resource) }
        } catch {
            throw MoviesError(wrapping: error)
        }
        let value: Value
        let encoded: [UInt8]?
        do {
            if let decoded = outcome.value as? Value {
                (value, encoded) = (decoded, outcome.encoded)
            } else {
                // A 304, or a newer entry another writer stored: its stored reply, else its body.
                (value, encoded) = try resource.stored(outcome.entry)
            }
        } catch {
            throw MoviesError(code: .invalidResponse, message: "TMDB's response could not be decoded")
        }
        let freshness = Freshness(
            origin: outcome.origin, fetchedAt: outcome.entry.fetchedAt,
            ageSeconds: outcome.entry.ageSeconds(at: now()), stale: false,
            stored: outcome.storageFault == nil ? nil : false, storageFault: outcome.storageFault)
        return Fetched(value: value, freshness: freshness, encoded: encoded)
    }
}
