import FoundationEssentials
import MoviesDomain
import MoviesWire

/// Search results and movie details, cached then remote (DESIGN §2 and §4).
///
/// Raw TMDB responses are stored under canonical keys and decoded with the DTOs both before they
/// are stored (a malformed body is never stored) and when read (a corrupt body is a miss). A failed
/// fetch never touches the stored entry.
public struct DefaultMoviesRepository: MoviesRepository {
    let loader: CachedRemoteLoader
    /// The index of every cached movie, for queries TMDB cannot answer (`nil`: none).
    let index: (any MovieTextIndex)?
    /// TMDB's daily ID export, searched after the cached movies (`nil`: none).
    let catalogue: (any CatalogueStorage)?
    let now: @Sendable () -> Date

    /// Creates the repository.
    /// - Parameters:
    ///   - storage: where raw responses are cached.
    ///   - remote: TMDB.
    ///   - health: the remote's health, shared by every repository that calls TMDB.
    ///   - policy: fresh lifetimes, max-stale bounds, negative TTL and byte budget.
    ///   - evictionInterval: the byte budget is enforced once every this many writes.
    ///   - now: the clock.
    ///   - storageHealth: where failed and successful writes are recorded (shared with `Status`);
    ///     a monitor of its own reporting to `health.events` when `nil`.
    ///   - index: the full-text index of every cached movie (kept from what `storage` holds), searched when TMDB
    ///     cannot answer a query that has no cached page, and for `local_only`.
    ///   - catalogue: every movie of TMDB's daily ID export; the local search lists its matches
    ///     after the cached movies', marked `catalogue`.
    public init(
        storage: any ResponseStorage, remote: any MoviesRemote, health: RemoteHealth,
        policy: CachePolicy = CachePolicy(), evictionInterval: Int = 32,
        now: @escaping @Sendable () -> Date = { Date() }, storageHealth: StorageHealthMonitor? = nil,
        index: (any MovieTextIndex)? = nil, catalogue: (any CatalogueStorage)? = nil
    ) {
        self.index = index
        self.catalogue = catalogue
        self.now = now
        loader = CachedRemoteLoader(
            storage: storage, remote: remote, health: health, policy: policy, now: now,
            flights: SingleFlight(), evictionSchedule: EvictionSchedule(every: evictionInterval),
            storageHealth: storageHealth ?? StorageHealthMonitor(events: health.events))
    }

    /// One page of search results, the whole call; see `MoviesRepository.searchMovies`.
    public func searchMovies(_ request: SearchRequest, policy: FetchPolicy, maxStaleSeconds: Int?, emit: EmitFetched<MoviesPage>) async throws {
        let resource = searchResource(request)
        let cached = try await loader.lookup(resource, for: policy)
        let entry = loader.entry(of: cached, resourceClass: .search, maxStaleSeconds: maxStaleSeconds)
        let plan = FetchPlan.make(policy: policy, streams: true, entry: entry, asker: RemoteDemand.current)
        try await search(request, resource, plan: plan, cached: cached, emit: emit)
    }

    /// The cached page for `request`, read once; see `MoviesRepository.lookupSearch`.
    public func lookupSearch(_ request: SearchRequest) async -> CacheLookup {
        await loader.lookupAnswer(searchResource(request))
    }

    /// The rest of a planned search; see `MoviesRepository.searchMovies(_:plan:emit:)`.
    public func searchMovies(_ request: SearchRequest, plan: FetchPlan, emit: EmitFetched<MoviesPage>) async throws {
        try await search(request, searchResource(request), plan: plan, cached: .missing, emit: emit)
    }

    /// Carries out a search's plan: the local index when the plan says only it answers, or when
    /// nothing is cached for the query and TMDB could not answer (or may not be asked) and any
    /// cached movie matches; otherwise the loader.
    private func search(
        _ request: SearchRequest, _ resource: CachedResource<MoviesPage>, plan: FetchPlan, cached: CachedLookup<MoviesPage>,
        emit: EmitFetched<MoviesPage>
    ) async throws {
        if plan.localIndex == .only {
            guard let found = try await searchLocally(request, remoteError: nil) else {
                throw MoviesError.notCached("no cached movie matches '\(request.query.query)'")
            }
            await emit(found)
            return
        }
        var emitted = false
        do {
            try await loader.execute(resource, plan: plan, cached: cached) { update in
                emitted = true
                await emit(update)
            }
        } catch let failure as MoviesError where !emitted && plan.localIndex == .ifNothingElse && Self.localIndexMayAnswer(failure) {
            guard let found = try? await searchLocally(request, remoteError: failure.message) else { throw failure }
            await emit(found)
        }
    }

    /// Whether a search that failed with `failure` (and answered nothing) may be answered from the
    /// local index: TMDB could not answer, or was not asked. Not when TMDB said there are no
    /// results, the request was bad, or the call was cancelled.
    static func localIndexMayAnswer(_ failure: MoviesError) -> Bool {
        [.notCached, .remoteUnavailable, .remoteRejected, .invalidResponse].contains(failure.code)
    }

    /// The most matches a search with a year reads from the local index to pick that year's from.
    static let yearWindow = 1_000

    /// The local index's page for `request`, `nil` when no cached movie and no catalogue title
    /// matches (or there is neither). Always stale: it is not TMDB's answer to the query. The
    /// cached movies come first, best first; the catalogue's titles follow, most popular first,
    /// marked `catalogue` (`LocalCatalogueMatches`). A region is not applied (the index keeps no
    /// regional release dates); a year is: the index does not hold release years, so the best
    /// `yearWindow` matches are read and those released that year are paged here (the catalogue,
    /// which has no years either, is left out then).
    private func searchLocally(_ request: SearchRequest, remoteError: String?) async throws -> Fetched<MoviesPage>? {
        guard index != nil || catalogue != nil else { return nil }
        let pageSize = 20
        let text = request.query.query, language = request.language ?? ""
        var found: [(movie: Movie, fetchedAt: Date)] = []
        var total = 0
        if let index {
            let query = request.year == nil
                ? LocalSearchQuery(text: text, language: language, page: request.page, pageSize: pageSize)
                : LocalSearchQuery(text: text, language: language, page: 1, pageSize: Self.yearWindow)
            let matches: LocalMatches
            do {
                matches = try await index.search(query)
            } catch {
                throw loader.storageHealth.recordFailure(error, during: "searching the local index", operation: .read)
            }
            found = matches.movies.map { (movie: $0.movie, fetchedAt: $0.fetchedAt) }
            total = matches.total
            if let year = request.year {
                found = found.filter { $0.movie.releaseYear == year }
                total = found.count
                found = Array(found.dropFirst((request.page - 1) * pageSize).prefix(pageSize))
            }
        }
        var listed = found.map(\.movie)
        var catalogueImportedAt: Date?
        if let catalogue, request.year == nil {
            let fromCatalogue = try await LocalCatalogueMatches.page(
                of: catalogue, text: text, page: request.page, pageSize: pageSize, cachedTotal: total, listed: listed)
            listed += fromCatalogue.movies
            total += fromCatalogue.total
            catalogueImportedAt = fromCatalogue.movies.isEmpty ? nil : fromCatalogue.importedAt
        }
        guard total > 0 else { return nil }
        let date = now()
        let oldest = (found.map(\.fetchedAt) + (catalogueImportedAt.map { [$0] } ?? [])).min() ?? date
        let page = MoviesPage(
            page: request.page, totalPages: (total + pageSize - 1) / pageSize, totalResults: total, movies: listed)
        let freshness = Freshness(
            origin: .localIndex, fetchedAt: oldest, ageSeconds: max(0, Int(date.timeIntervalSince(oldest))), stale: true,
            remoteError: remoteError)
        return Fetched(value: page, freshness: freshness)
    }

    /// A value's JSON in the interface's shape, as stored with its response.
    @Sendable private static func replyJSON<Value: Encodable>(_ value: Value) -> [UInt8]? {
        try? WireCoding.bytes(value)
    }

    /// A stored reply read back into its value.
    @Sendable private static func fromReply<Value: Decodable>(_ bytes: [UInt8]) throws -> Value {
        try WireCoding.decode(Value.self, from: bytes)
    }

    private func searchResource(_ request: SearchRequest) -> CachedResource<MoviesPage> {
        CachedResource<MoviesPage>(
            key: CacheKey.search(request),
            resourceClass: .search,
            request: .search(query: request.query.query, page: request.page, language: request.language, region: request.region, year: request.year),
            decode: { entry in try MoviesResponseDTO.decode(entry.body).toDomain() },
            reply: Self.replyJSON, decodeReply: Self.fromReply,
            notFound: MoviesError(code: .notFound, message: "TMDB has no results for '\(request.query.query)'", httpStatus: 404))
    }

    /// One movie's details, the whole call; see `MoviesRepository.movieDetails`.
    public func movieDetails(id: Int, language: String?, policy: FetchPolicy, emit: EmitFetched<MovieDetails>) async throws {
        let resource = movieResource(id: id, language: language)
        let cached = try await loader.lookup(resource, for: policy)
        let entry = loader.entry(of: cached, resourceClass: .movie, maxStaleSeconds: nil)
        let plan = FetchPlan.make(policy: policy, streams: true, entry: entry, asker: RemoteDemand.current)
        try await details(id: id, resource, plan: plan, cached: cached, emit: emit)
    }

    /// The cached details, read once; see `MoviesRepository.lookupMovie`.
    public func lookupMovie(id: Int, language: String?) async -> CacheLookup {
        await loader.lookupAnswer(movieResource(id: id, language: language))
    }

    /// The rest of a planned fetch; see `MoviesRepository.movieDetails(id:language:plan:emit:)`.
    public func movieDetails(id: Int, language: String?, plan: FetchPlan, emit: EmitFetched<MovieDetails>) async throws {
        try await details(id: id, movieResource(id: id, language: language), plan: plan, cached: .missing, emit: emit)
    }

    /// Carries out a movie's plan; when it answered nothing because TMDB could not answer (or may
    /// not be asked), and no cached value answers (the plan says so: one may have been answered
    /// before this runs, or be the fallback), what the catalogue knows of the movie answers a
    /// person, marked `catalogue`, stale, with TMDB's failure as its `remoteError`. Background
    /// work (a refresh) gets TMDB's failure: a catalogue title is not a fetch.
    private func details(
        id: Int, _ resource: CachedResource<MovieDetails>, plan: FetchPlan, cached: CachedLookup<MovieDetails>,
        emit: EmitFetched<MovieDetails>
    ) async throws {
        var emitted = false
        do {
            try await loader.execute(resource, plan: plan, cached: cached) { update in
                emitted = true
                await emit(update)
            }
        } catch let failure as MoviesError
            where !emitted && plan.immediate == nil && !plan.fallsBackToCache && plan.demand != .background && Self.localIndexMayAnswer(failure) {
            guard let catalogue, let title = try? await catalogue.title(id: id) else { throw failure }
            let date = now()
            let importedAt = (try? await catalogue.status().importedAt).flatMap { $0 } ?? date
            let details = MovieDetails(id: id, title: title.title, originalTitle: title.title, popularity: title.popularity, catalogue: true)
            await emit(Fetched(value: details, freshness: Freshness(
                origin: .localIndex, fetchedAt: importedAt, ageSeconds: max(0, Int(date.timeIntervalSince(importedAt))), stale: true,
                remoteError: failure.message)))
        }
    }

    private func movieResource(id: Int, language: String?) -> CachedResource<MovieDetails> {
        CachedResource<MovieDetails>(
            key: CacheKey.movie(id: id, language: language),
            resourceClass: .movie,
            request: .movie(id: id, language: language),
            decode: { entry in try MovieDetailsDTO.decode(entry.body).toDomain() },
            reply: Self.replyJSON, decodeReply: Self.fromReply,
            notFound: MoviesError(code: .notFound, message: "TMDB has no movie with id \(id)", httpStatus: 404, tmdbCode: 34, movieID: id))
    }
}
