import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

@Suite struct DefaultCacheMaintenanceRepositoryTests {
    let clock = TestClock()
    let storage = InMemoryResponseStorage()
    let matrix = MovieQuery("The Matrix")!

    private func seed() async {
        let keys = [
            CacheKey.search(matrix, page: 1, language: nil), CacheKey.search(matrix, page: 2, language: "de"),
            CacheKey.search(MovieQuery("alien")!, page: 1, language: nil),
            CacheKey.movie(id: 603, language: nil), CacheKey.movie(id: 6030, language: nil),
            CacheKey.poster(path: "/a.jpg", size: .w92),
        ]
        for key in keys {
            await storage.seed(StoredResponse(key: key, resource: .search, body: Data("0123456789".utf8), fetchedAt: clock.date, expiresAt: clock.date.addingTimeInterval(3600)))
        }
    }

    private var repository: DefaultCacheMaintenanceRepository {
        DefaultCacheMaintenanceRepository(storage: storage, policy: CachePolicy(byteBudget: 1000), now: clock.now)
    }

    @Test func scopesMapToTheirKeyPrefixes() async throws {
        await seed()
        #expect(try await repository.purge(.search(MovieQuery("  the MATRIX")!)).entries == 2)
        #expect(try await repository.purge(.movie(id: 603)).entries == 1)
        #expect(try await repository.purge(.posters).entries == 1)
        #expect(await storage.keys == [CacheKey.movie(id: 6030, language: nil), CacheKey.search(MovieQuery("alien")!, page: 1, language: nil)].sorted())
        #expect(try await repository.purge(.all).entries == 2)
    }

    @Test func invalidateKeepsEntriesButMarksThemStale() async throws {
        await seed()
        #expect(try await repository.invalidate(.search(matrix)) == 2)
        let stats = try await repository.statistics(pinsOf: nil)
        #expect(stats == CacheStats(entries: 6, bytes: 60, staleEntries: 2, pinnedEntries: 0, byteBudget: 1000, pinnedBytes: 0))
    }
}
