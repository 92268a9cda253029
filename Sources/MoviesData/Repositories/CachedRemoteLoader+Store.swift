import FoundationEssentials
import MoviesDomain
import MoviesWire

extension CachedRemoteLoader {
    /// The body of one shared fetch (the caller passed `health`'s gate): sends the stored ETag,
    /// decodes the body once (a body that does not decode is the remote's failure, as the remote
    /// reports other undecodable bodies), records the outcome in `health` and stores the response.
    /// A failed fetch never touches the stored entry, except that an authoritative 404 is
    /// remembered as a negative entry.
    func fetchAndStore<Value: Sendable>(_ resource: CachedResource<Value>) async throws -> FetchOutcome {
        let stored = try? await storage.response(forKey: resource.key)
        // Its ETag is sent only if the stored entry is still good: a row stored with a current
        // reply was decoded when it was saved; an older row is decoded once here.
        let validated = stored.flatMap { entry in
            entry.httpStatus == 200 && (entry.reply(atVersion: WireCoding.version) != nil || (try? resource.decode(entry)) != nil) ? entry : nil
        }
        let response: RemoteResponse
        let (remote, request, etag) = (self.remote, resource.request, validated?.etag)
        let started = ContinuousClock.now
        do {
            try Task.checkCancellation()
            response = try await remote.fetch(request, etag: etag)
        } catch {
            throw await failed(resource, MoviesError(wrapping: error), since: started)
        }
        // An answer a shared cache in between already held for `Age` seconds was fetched from TMDB
        // that long ago: its fresh lifetime runs from then, not from now.
        let lifetime = policy.freshLifetime(of: resource.resourceClass, remoteMaxAge: response.maxAge)
        let received = now().addingTimeInterval(-Double(min(response.age ?? 0, lifetime)))
        let expiresAt = received.addingTimeInterval(Double(lifetime))
        if response.isNotModified {
            await answered(resource, response, since: started)
            guard var entry = validated, entry.etag != nil else {
                throw MoviesError(code: .invalidResponse, message: "TMDB answered 304 Not Modified to a request without a validator")
            }
            var fault: StorageFault?
            do {
                try await storage.revalidate(key: resource.key, fetchedAt: received, expiresAt: expiresAt)
                storageHealth.recordSuccess()
            } catch {
                fault = storageHealth.recordFailure(error, during: "storing a revalidation").storageFault ?? .unavailable
            }
            entry.fetchedAt = received
            entry.expiresAt = expiresAt
            return FetchOutcome(entry: entry, value: nil, origin: .revalidated, storageFault: fault)
        }
        var entry = StoredResponse(
            key: resource.key, resource: resource.resourceClass, body: response.body,
            contentType: response.contentType ?? defaultContentType(resource.resourceClass),
            httpStatus: 200, fetchedAt: received, expiresAt: expiresAt,
            etag: response.etag, lastModified: response.lastModified)
        let value: Value
        do {
            // Decoded once: to refuse a malformed body, to store the value in the reply's shape,
            // and to answer with.
            value = try resource.decode(entry)
            entry.reply = resource.reply(value)
            entry.replyVersion = WireCoding.version
        } catch {
            throw await failed(resource, TMDBResponseInterpreter.undecodable(resource.request), since: started)
        }
        await answered(resource, response, since: started)
        let result = await store(entry)
        if result == .newerKept,
           let newer = try? await storage.response(forKey: resource.key),
           newer.httpStatus == 200, (try? resource.stored(newer)) != nil {
            // Another writer stored a newer response meanwhile: answer with that one.
            return FetchOutcome(entry: newer, value: nil, origin: .network)
        }
        if case .failed(let fault) = result {
            return FetchOutcome(entry: entry, value: value, encoded: entry.reply, origin: .network, storageFault: fault)
        }
        return FetchOutcome(entry: entry, value: value, encoded: entry.reply, origin: .network)
    }

    /// Logs and records a usable answer (a 304, or a 2xx whose body decoded): TMDB is online.
    private func answered<Value: Sendable>(_ resource: CachedResource<Value>, _ response: RemoteResponse, since started: ContinuousClock.Instant) async {
        logFetch(resource.key, outcome: "HTTP \(response.httpStatus)", since: started)
        await health.recordSuccess()
        if let cacheStatus = response.cacheStatus { await health.recordSharedCache(status: cacheStatus, via: response.via) }
    }

    /// Logs and records `failure` (unless the fetch was cancelled), remembers an authoritative
    /// 404, and returns the error to throw.
    private func failed<Value: Sendable>(_ resource: CachedResource<Value>, _ failure: MoviesError, since started: ContinuousClock.Instant) async -> MoviesError {
        logFetch(resource.key, outcome: failure.code.rawValue, since: started)
        guard failure.code != .cancelled else { return failure }
        await health.recordFailure(failure)
        if failure.isAuthoritativeNotFound { await storeNegative(resource) }
        return failure
    }

    /// Remembers an authoritative 404 for `policy.negativeSeconds`.
    private func storeNegative<Value: Sendable>(_ resource: CachedResource<Value>) async {
        let date = now()
        let entry = StoredResponse(
            key: resource.key, resource: resource.resourceClass, body: Data(), httpStatus: 404,
            fetchedAt: date, expiresAt: date.addingTimeInterval(Double(policy.negativeSeconds)))
        _ = await store(entry)
    }

    /// Saves `entry` (storage keeps a newer one) and now and then enforces the byte budget.
    /// A storage failure does not fail the fetch: the fresh value is still delivered, the failure
    /// is recorded in `storageHealth` (logged once per cause) and returned for the reply to say.
    private func store(_ entry: StoredResponse) async -> StoreResult {
        let saved: Bool
        do {
            saved = try await storage.save(entry)
        } catch {
            return .failed(storageHealth.recordFailure(error, during: "storing a response").storageFault ?? .unavailable)
        }
        storageHealth.recordSuccess()
        guard saved else { return .newerKept }
        if await evictionSchedule.recordWrite() {
            do {
                let evicted = try await storage.evict(toFit: policy.byteBudget)
                if evicted > 0 {
                    health.events.record(DataEvent(.info, "cache.evicted", "evicted \(evicted) least recently used cache entries to stay within the \(policy.byteBudget)-byte budget"))
                }
            } catch {
                // The response is stored; the budget is enforced again at a later write.
                storageHealth.recordFailure(error, during: "evicting old cache entries")
            }
        }
        return .saved
    }

    /// One debug line per remote fetch: key, outcome, milliseconds (never a credential: keys hold
    /// only the query, id or image path).
    private func logFetch(_ key: String, outcome: String, since started: ContinuousClock.Instant) {
        guard health.events.isEnabled(.debug) else { return }
        let elapsed = started.duration(to: .now)
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        health.events.record(DataEvent(.debug, "remote.fetch", "fetch \(key) -> \(outcome) in \(Int(ms.rounded())) ms"))
    }

    /// What became of a write.
    private enum StoreResult: Equatable {
        case saved
        case newerKept
        case failed(StorageFault)
    }

    private func defaultContentType(_ resourceClass: ResourceClass) -> String {
        resourceClass == .poster ? "image/jpeg" : "application/json"
    }
}
