import FoundationEssentials
import Glibc
import MoviesData
import MoviesDomain
import SQLiteStore

/// `moviesd-bench evict`: eviction at the byte budget, on the daemon's own storage code
/// (`SQLiteResponseStorage.evict(toFit:)`) over an existing cache database (changed: run it on a
/// copy). The steady state: a new 5 KB page stored over a full budget, then the eviction that
/// makes room for it (`--runs` times); then one eviction of a tenth of the cache.
struct EvictionBench {
    var database = ""
    var runs = 200

    func run() async throws -> [String] {
        let store = try SQLiteStore(path: database, readers: 2, migrator: SQLiteMigrator(migrations: StoreSchema.cacheMigrations), durability: .consistent)
        let storage = SQLiteResponseStorage(store: store)
        let rows = try await store.read { try $0.integer("SELECT count(*) FROM responses") ?? 0 }
        let budget = try await store.read { try $0.integer("SELECT sum(size) FROM responses") ?? 0 }
        let body = Data(repeating: 0x20, count: 5_000)
        let clock = ContinuousClock()
        var times: [Double] = []
        var evicted = 0
        for number in 0..<runs {
            let now = Date()
            try await storage.save(StoredResponse(
                key: "search/movie?query=evict-bench-\(number)&language=&page=1", resource: .search, body: body,
                fetchedAt: now, expiresAt: now.addingTimeInterval(21_600)))
            let start = clock.now
            evicted += try await storage.evict(toFit: budget)
            times.append(CatalogueBench.seconds(clock.now - start) * 1000)
        }
        let start = clock.now
        let tenth = try await storage.evict(toFit: budget - budget / 10)
        let tenthMilliseconds = CatalogueBench.seconds(clock.now - start) * 1000
        await store.close()
        return [
            CatalogueBench.latencyLine("evict rows=\(rows) budget_mib=\(CatalogueBench.format(Double(budget) / 1_048_576, 1)) one_page_over evicted=\(evicted)", times),
            "evict rows=\(rows) a_tenth_over evicted=\(tenth) ms=\(CatalogueBench.format(tenthMilliseconds, 2))",
        ]
    }
}
