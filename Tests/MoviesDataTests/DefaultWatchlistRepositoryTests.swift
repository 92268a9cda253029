import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

@Suite struct DefaultWatchlistRepositoryTests {
    static func entry(_ text: String, pages: Int = 3) throws -> WatchlistQuery {
        try WatchlistQuery(query: #require(MovieQuery(text)), pages: pages)
    }

    @Test func addCreatesMergesAndKeepsOrder() async throws {
        let repository = DefaultWatchlistRepository(storage: InMemoryWatchlistStorage(), responses: InMemoryResponseStorage())
        _ = try await repository.add(to: "films", queries: [Self.entry("Matrix")], movieIDs: [603])
        let list = try await repository.add(to: "films", queries: [Self.entry("MATRIX", pages: 5), Self.entry("heat")], movieIDs: [603, 11])
        #expect(list.queries.map(\.query.query) == ["Matrix", "heat"])
        #expect(list.queries.map(\.pages) == [5, 3])
        #expect(list.movieIDs == [603, 11])
        #expect(try await repository.watchlists() == [list])
    }

    @Test func removingAndDeletingUnpinsOnlyWhatNoListNeeds() async throws {
        let responses = InMemoryResponseStorage()
        let repository = DefaultWatchlistRepository(storage: InMemoryWatchlistStorage(), responses: responses)
        _ = try await repository.add(to: "a", queries: [], movieIDs: [1, 2])
        _ = try await repository.add(to: "b", queries: [], movieIDs: [2])
        for id in [1, 2] {
            let date = Date(timeIntervalSince1970: 0)
            await responses.seed(StoredResponse(key: CacheKey.movie(id: id, language: nil), resource: .movie, body: Data("{}".utf8), fetchedAt: date, expiresAt: date), pinned: true)
        }
        _ = try await repository.remove(from: "a", queries: [], movieIDs: [1, 2])
        #expect(try await responses.statistics(now: Date(), byteBudget: 0).pinnedEntries == 1)  // 2 is still on b
        #expect(try await repository.delete("b"))
        #expect(try await responses.statistics(now: Date(), byteBudget: 0).pinnedEntries == 0)
        #expect(try await repository.delete("b") == false)
        await #expect(throws: MoviesError.self) { try await repository.remove(from: "b", queries: [], movieIDs: [1]) }
    }
}
