import FoundationEssentials
import MoviesDomain
import MoviesWire

/// The cached-then-remote engine shared by the repositories: reads a call's entry once, carries
/// out its `FetchPlan`, fetches through one shared flight per key and stores what TMDB sent.
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

    /// A whole call for `resource` with `policy`: one lookup, its plan (a sequence of updates: the
    /// cached value first when the policy answers with it), and the plan carried out. Who asks is
    /// ``RemoteDemand/current``, else the policy's caller.
    func run<Value: Sendable>(
        _ resource: CachedResource<Value>, policy fetchPolicy: FetchPolicy, maxStaleSeconds: Int? = nil, emit: (Fetched<Value>) async -> Void
    ) async throws {
        let cached = try await lookup(resource, for: fetchPolicy)
        let entry = entry(of: cached, resourceClass: resource.resourceClass, maxStaleSeconds: maxStaleSeconds)
        let plan = FetchPlan.make(policy: fetchPolicy, streams: true, entry: entry, asker: RemoteDemand.current)
        try await execute(resource, plan: plan, cached: cached, emit: emit)
    }

    /// The entry of `resource` read once for a call with `policy`, decoded: an unreadable cache is
    /// recorded and is a miss, except for `cache_only`, which fails with the storage error (the
    /// network cannot stand in). `local_only` reads nothing.
    func lookup<Value: Sendable>(_ resource: CachedResource<Value>, for policy: FetchPolicy) async throws -> CachedLookup<Value> {
        switch policy {
        case .localOnly:
            return .missing
        case .cacheOnly:
            do {
                return try await lookup(resource)
            } catch {
                throw storageHealth.recordFailure(error, during: "reading the cache", operation: .read)
            }
        case .cacheFirst, .cacheThenNetwork, .networkOnly:
            return await lookupRecordingFailure(resource)
        }
    }

    /// The plan's view of `cached` now; `maxStaleSeconds` overrides the configured bound.
    func entry<Value: Sendable>(of cached: CachedLookup<Value>, resourceClass: ResourceClass, maxStaleSeconds: Int?) -> FetchPlan.Entry {
        let date = now()
        switch cached {
        case .missing:
            return .missing
        case .negative(let entry):
            return .negative(stale: entry.isStale(at: date))
        case .value(_, let entry, _):
            let maxStale = maxStaleSeconds ?? policy.maxStale(of: resourceClass)
            return .value(stale: entry.isStale(at: date), servable: isServable(entry, at: date, maxStale: maxStale))
        }
    }

    /// Carries out `plan` for `resource`, whose entry the call read once (`cached`, decoded; or
    /// `.missing` when the caller answered the plan's immediate part itself from its own lookup,
    /// and answers its fallback too): the cached value when the plan answers with it, then
    /// TMDB's answer through the key's shared flight. When TMDB fails and the plan falls back to
    /// the cache, the cached value is emitted with the reason, unless it went out already (then
    /// the failure is thrown: the caller has the value). Throws a `MoviesError`.
    func execute<Value: Sendable>(
        _ resource: CachedResource<Value>, plan: FetchPlan, cached: CachedLookup<Value>, emit: (Fetched<Value>) async -> Void
    ) async throws {
        do {
            if plan.notFound { throw resource.notFound }
            var answered = false
            if plan.immediate != nil, case .value(let value, let entry, let encoded) = cached {
                await emit(cachedUpdate(value, entry, encoded: encoded))
                answered = true
            }
            guard plan.fetches else {
                if plan.immediate == nil { throw MoviesError.notCached("nothing cached for this request and the policy forbids the network") }
                return
            }
            do {
                await emit(try await fetch(resource, demand: plan.demand))
            } catch {
                let failure = MoviesError(wrapping: error)
                guard plan.fallsBackToCache, !answered, failure.code != .cancelled,
                      case .value(let value, let entry, let encoded) = cached else { throw failure }
                await emit(cachedUpdate(value, entry, encoded: encoded, remoteError: failure.message))
            }
        } catch {
            throw MoviesError(wrapping: error)
        }
    }

    /// The entry of `resource` in the interface's shape, read once: a negative entry, the stored
    /// reply bytes when they are of today's `WireCoding.version`, else (a row stored by an older
    /// moviesd, or in an older shape) the body decoded and encoded once; a miss on a corrupt entry
    /// or a storage error (recorded).
    func lookupAnswer<Value: Sendable>(_ resource: CachedResource<Value>) async -> CacheLookup {
        let maxStale = policy.maxStale(of: resource.resourceClass)
        let entry: StoredResponse?
        do {
            entry = try await storage.response(forKey: resource.key)
        } catch {
            let failure = storageHealth.recordFailure(error, during: "reading the cache", operation: .read)
            return CacheLookup(.unreadable(failure), maxStaleSeconds: maxStale)
        }
        guard let entry else { return CacheLookup(.missing, maxStaleSeconds: maxStale) }
        if entry.httpStatus == 404 { return CacheLookup(.negative(expiresAt: entry.expiresAt), maxStaleSeconds: maxStale) }
        guard entry.httpStatus == 200 else { return CacheLookup(.missing, maxStaleSeconds: maxStale) }
        if let json = entry.reply(atVersion: WireCoding.version) {
            return CacheLookup(.answer(CachedAnswer(json: json, fetchedAt: entry.fetchedAt, expiresAt: entry.expiresAt)), maxStaleSeconds: maxStale)
        }
        guard let json = (try? resource.decode(entry)).flatMap(resource.reply) else { return CacheLookup(.missing, maxStaleSeconds: maxStale) }
        await upgradeReply(of: entry, to: json)
        return CacheLookup(.answer(CachedAnswer(json: json, fetchedAt: entry.fetchedAt, expiresAt: entry.expiresAt)), maxStaleSeconds: maxStale)
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
