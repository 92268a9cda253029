import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// Each owner's pins within its byte budget (issue 45): a refresh pins its owner's entries in
/// list order while they fit and neither fetches nor pins the rest, says how many in its summary
/// and the journal; the scheduler leaves them alone too; the system's lists may pin the whole
/// cache; a page on two owners' lists counts against each.
@Suite(.timeLimit(.minutes(1))) struct WatchlistRefresherPinBudgetTests {
    static let alice = Owner.user(LocalUser(uid: 1001))
    static let bob = Owner.user(LocalUser(uid: 1002))

    /// The bytes one search page of the harness's remote takes in the cache (each query's page 1
    /// has the same body).
    static func pageBytes() async throws -> Int64 {
        let probe = RefresherHarness(totalPages: 1)
        try await probe.add(queries: ["probe"], pages: 1, owner: alice)
        _ = try await probe.refresher.refresh(RefreshTarget(owners: [alice]), mode: .due) { _ in }
        return await probe.responses.pinnedBytes(of: alice)
    }

    static func key(_ query: String) -> String {
        CacheKey.search(MovieQuery(query)!, page: 1, language: nil)
    }

    static func fetches(of query: String, _ harness: RefresherHarness) async -> Int {
        await harness.remote.requests.filter { request in
            if case .search(let asked, 1, _, _, _) = request { return asked == MovieQuery(query)!.query }
            return false
        }.count
    }

    @Test func aUsersRefreshPinsWhatFitsInListOrderAndNeitherFetchesNorPinsTheRest() async throws {
        let page = try await Self.pageBytes()
        let harness = RefresherHarness(totalPages: 1, pinBudget: PinBudget(cacheBytes: .max, userBytes: 3 * page + page / 2), concurrentQueries: 1)
        let queries = (0..<6).map { "q\($0)" }
        try await harness.add("alices", queries: queries, pages: 1, owner: Self.alice)
        let summary = try await harness.refresher.refresh(RefreshTarget(owners: [Self.alice]), mode: .due) { _ in }

        // q0-q2 fit; q3 was fetched and did not; q4 and q5 were left alone.
        for query in queries.prefix(3) { #expect(await harness.responses.isPinned(Self.key(query), by: Self.alice), "\(query)") }
        #expect(await harness.responses.isPinned(Self.key("q3"), by: Self.alice) == false)
        #expect(await harness.remote.fetchCount == 4)
        #expect(await harness.responses.peek(Self.key("q4")) == nil)
        #expect(summary.done == 4 && summary.skipped == 2 && summary.failed == 0)
        #expect(summary.overBudget == 3)
        #expect(summary.pinnedBytes == 3 * page && summary.pinBudgetBytes == 3 * page + page / 2)
        let finished = try #require(harness.events.events.last)
        #expect(finished.name == "refresh.finished" && finished.severity == .notice)
        #expect(finished.message.contains("3 not pinned: uid 1001's pins reached their \(3 * page + page / 2)-byte budget ([Users] PinnedBytesPerUser=)"))

        // The scheduler keeps the pinned ones current and leaves the others alone.
        harness.clock.advance(by: 7 * 3600)
        _ = await harness.scheduler.runPass()
        for query in queries.prefix(3) { #expect(await Self.fetches(of: query, harness) == 2, "\(query): pinned, kept current") }
        for query in queries.suffix(3) { #expect(await Self.fetches(of: query, harness) == (query == "q3" ? 1 : 0), "\(query): beyond the budget") }
    }

    @Test func theSystemsListsMayPinTheWholeBudgetAUsersAQuarter() async throws {
        let page = try await Self.pageBytes()
        let harness = RefresherHarness(totalPages: 1, pinBudget: PinBudget(cacheBytes: 4 * page), concurrentQueries: 1)
        try await harness.add("shared", queries: (0..<6).map { "s\($0)" }, pages: 1, owner: .system)
        try await harness.add("alices", queries: (0..<3).map { "a\($0)" }, pages: 1, owner: Self.alice)
        let summary = try await harness.refresher.refresh(RefreshTarget(owners: [.system, Self.alice]), mode: .due) { _ in }
        #expect(await harness.responses.pinnedBytes(of: .system) == 4 * page)
        #expect(await harness.responses.pinnedBytes(of: Self.alice) == page)
        #expect(summary.overBudget == 2 + 2)
        #expect(summary.pinnedBytes == 5 * page && summary.pinBudgetBytes == 5 * page, "the owners' added up")
    }

    @Test func aPageOnTwoOwnersListsCountsAgainstEach() async throws {
        let page = try await Self.pageBytes()
        let harness = RefresherHarness(totalPages: 1, pinBudget: PinBudget(cacheBytes: .max, userBytes: 2 * page), concurrentQueries: 1)
        try await harness.add("alices", queries: ["shared", "a1", "a2"], pages: 1, owner: Self.alice)
        try await harness.add("bobs", queries: ["b1", "shared", "b2"], pages: 1, owner: Self.bob)
        _ = try await harness.refresher.refresh(RefreshTarget(owners: [Self.alice, Self.bob]), mode: .due) { _ in }
        for (owner, kept) in [(Self.alice, ["shared", "a1"]), (Self.bob, ["b1", "shared"])] {
            #expect(await harness.responses.pinnedBytes(of: owner) == 2 * page)
            for query in kept { #expect(await harness.responses.isPinned(Self.key(query), by: owner), "\(owner): \(query)") }
        }
        #expect(await Self.fetches(of: "shared", harness) == 1, "fetched once, for both")
        // Alice lets go of it: bob's pin keeps it, and alice's room goes to her next entry.
        _ = try await harness.repository.remove(from: "alices", owner: Self.alice, queries: [MovieQuery("shared")!], movieIDs: [])
        #expect(await harness.responses.isPinned(Self.key("shared"), by: Self.bob))
        _ = try await harness.refresher.refresh(RefreshTarget(owners: [Self.alice]), mode: .due) { _ in }
        #expect(await harness.responses.isPinned(Self.key("a2"), by: Self.alice))
    }
}
