import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing

@Suite struct DefaultWatchlistRepositoryTests {
    static func entry(_ text: String, pages: Int = 3) throws -> WatchlistQuery {
        try WatchlistQuery(query: #require(MovieQuery(text)), pages: pages)
    }

    @Test func addCreatesMergesAndKeepsOrder() async throws {
        let repository = DefaultWatchlistRepository(storage: InMemoryWatchlistStorage(), responses: InMemoryResponseStorage())
        _ = try await repository.add(to: "films", owner: .system, queries: [Self.entry("Matrix")], movieIDs: [603])
        let list = try await repository.add(to: "films", owner: .system, queries: [Self.entry("MATRIX", pages: 5), Self.entry("heat")], movieIDs: [603, 11])
        #expect(list.queries.map(\.query.query) == ["Matrix", "heat"])
        #expect(list.queries.map(\.pages) == [5, 3])
        #expect(list.movieIDs == [603, 11])
        #expect(try await repository.watchlists() == [list])
    }

    @Test func removingAndDeletingUnpinsOnlyWhatNoListNeeds() async throws {
        let responses = InMemoryResponseStorage()
        let repository = DefaultWatchlistRepository(storage: InMemoryWatchlistStorage(), responses: responses)
        _ = try await repository.add(to: "a", owner: .system, queries: [], movieIDs: [1, 2])
        _ = try await repository.add(to: "b", owner: .system, queries: [], movieIDs: [2])
        for id in [1, 2] {
            let date = Date(timeIntervalSince1970: 0)
            await responses.seed(StoredResponse(key: CacheKey.movie(id: id, language: nil), resource: .movie, body: Data("{}".utf8), fetchedAt: date, expiresAt: date), pinned: true)
        }
        _ = try await repository.remove(from: "a", owner: .system, queries: [], movieIDs: [1, 2])
        #expect(try await responses.statistics(now: Date(), byteBudget: 0).pinnedEntries == 1)  // 2 is still on b
        #expect(try await repository.delete("b", owner: .system))
        #expect(try await responses.statistics(now: Date(), byteBudget: 0).pinnedEntries == 0)
        #expect(try await repository.delete("b", owner: .system) == false)
        await #expect(throws: MoviesError.self) { try await repository.remove(from: "b", owner: .system, queries: [], movieIDs: [1]) }
    }

    @Test func postersOfMoviesThatLeftEveryListAreUnpinnedUnlessAnotherMovieShowsThem() async throws {
        let responses = InMemoryResponseStorage()
        let repository = DefaultWatchlistRepository(storage: InMemoryWatchlistStorage(), responses: responses)
        _ = try await repository.add(to: "a", owner: .system, queries: [], movieIDs: [1, 2, 3, 4])
        let date = Date(timeIntervalSince1970: 0)
        // 1 and 2 leave; 3 stays and shares 2's poster; 4 stays with a body that is not JSON.
        let details: [Int: String] = [1: #"{"id":1,"poster_path":"/one.jpg"}"#, 2: #"{"id":2,"poster_path":"/shared.jpg"}"#,
                                      3: #"{"id":3,"poster_path":"/shared.jpg"}"#, 4: "not json"]
        for (id, body) in details {
            await responses.seed(StoredResponse(key: CacheKey.movie(id: id, language: nil), resource: .movie, body: Data(body.utf8), fetchedAt: date, expiresAt: date), pinned: true)
        }
        let posters = ["/one.jpg", "/shared.jpg", "/other.jpg"].flatMap { path in
            [PosterSize.w92, .w342].map { CacheKey.poster(path: path, size: $0) }
        }
        for key in posters {
            await responses.seed(StoredResponse(key: key, resource: .poster, body: Data([0xFF, 0xD8]), contentType: "image/jpeg", fetchedAt: date, expiresAt: .distantFuture), pinned: true)
        }

        _ = try await repository.remove(from: "a", owner: .system, queries: [], movieIDs: [1, 2])

        #expect(await responses.isPinned(CacheKey.movie(id: 1, language: nil)) == false)
        #expect(await responses.isPinned(CacheKey.movie(id: 3, language: nil)) == true)
        for size in [PosterSize.w92, .w342] {
            #expect(await responses.isPinned(CacheKey.poster(path: "/one.jpg", size: size)) == false)
            #expect(await responses.isPinned(CacheKey.poster(path: "/shared.jpg", size: size)) == true)  // 3 still shows it
            #expect(await responses.isPinned(CacheKey.poster(path: "/other.jpg", size: size)) == true)  // not 1's or 2's
        }

        #expect(try await repository.delete("a", owner: .system))
        for size in [PosterSize.w92, .w342] {
            #expect(await responses.isPinned(CacheKey.poster(path: "/shared.jpg", size: size)) == false)
        }
    }

    /// With the daemon's memory warm, a movie's details are held by their reply, not TMDB's body:
    /// the poster path comes from the reply (a review found it read from the empty body, so the
    /// poster stayed pinned for ever).
    @Test func aPosterIsUnpinnedWhenItsMoviesDetailsAreInMemory() async throws {
        let responses = InMemoryResponseStorage(memoryBytes: 1 << 20)
        let repository = DefaultWatchlistRepository(storage: InMemoryWatchlistStorage(), responses: responses)
        _ = try await repository.add(to: "a", owner: .system, queries: [], movieIDs: [1])
        let date = Date(timeIntervalSince1970: 0)
        let body = Data(#"{"id":1,"title":"One","poster_path":"/one.jpg"}"#.utf8)
        let reply = try WireCoding.bytes(MovieDetailsDTO.decode(body).toDomain())
        try await responses.save(StoredResponse(
            key: CacheKey.movie(id: 1, language: nil), resource: .movie, body: body, fetchedAt: date, expiresAt: date,
            reply: reply, replyVersion: WireCoding.version))
        try await responses.pinForSystem([CacheKey.movie(id: 1, language: nil)])
        #expect(responses.remembered(forKey: CacheKey.movie(id: 1, language: nil))?.bodyOmitted == true)
        let poster = CacheKey.poster(path: "/one.jpg", size: .w342)
        await responses.seed(StoredResponse(key: poster, resource: .poster, body: Data([0xFF, 0xD8]), contentType: "image/jpeg", fetchedAt: date, expiresAt: .distantFuture), pinned: true)

        _ = try await repository.remove(from: "a", owner: .system, queries: [], movieIDs: [1])

        #expect(await responses.isPinned(poster) == false)
    }
}
