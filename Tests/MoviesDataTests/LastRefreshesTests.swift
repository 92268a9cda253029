import FoundationEssentials
@testable import MoviesData
import MoviesDomain
import MoviesTestSupport
import Testing

/// Issue 31: `Status` shows each caller the last refresh they may know of; another user's refresh
/// (when it ran, how many steps: the size of their lists) is not one of them.
@Suite struct LastRefreshesTests {
    static let alice = Caller(user: LocalUser(uid: 1001), isAdministrator: false)
    static let bob = Caller(user: LocalUser(uid: 1002), isAdministrator: false)
    static let root = Caller(user: .root, isAdministrator: true)

    @Test func aUsersRefreshIsTheLastOneForThemAndRootOnly() async throws {
        let harness = RefresherHarness(totalPages: 1)
        try await harness.add("films", movies: [603])
        try await harness.add("secret", movies: [11, 12], owner: Self.alice.personal)
        let refresher = harness.refresher
        let system = try await refresher.refresh(RefreshTarget(owners: [.system]), mode: .due) { _ in }
        harness.clock.advance(by: 60)
        let hers = try await refresher.refresh(RefreshTarget(owners: [Self.alice.personal]), mode: .due) { _ in }
        #expect(hers.done == 2 && system.done == 1)
        #expect(await refresher.lastRefresh(visibleTo: Self.bob) == system, "bob sees the system lists' refresh, not alice's")
        #expect(await refresher.lastRefresh(visibleTo: nil) == system)
        #expect(await refresher.lastRefresh(visibleTo: Self.alice) == hers)
        #expect(await refresher.lastRefresh(visibleTo: Self.root) == hers)
        #expect(await refresher.lastRefresh() == hers)
        // Only the public one outlives the daemon.
        #expect(try await harness.history.lastRefresh() == system)
        let restarted = RefresherHarness(totalPages: 1, history: harness.history)
        #expect(await restarted.refresher.lastRefresh(visibleTo: Self.bob) == system)
    }

    @Test func aRefreshThatFoundNoListIsTheAskersAlone() async throws {
        let harness = RefresherHarness(totalPages: 1)
        try await harness.add("films", movies: [603])
        let refresher = harness.refresher
        let system = try await refresher.refresh(RefreshTarget(owners: [.system]), mode: .due) { _ in }
        harness.clock.advance(by: 60)
        // Bob has no list: his refresh goes through nothing, and is his alone to know of.
        let his = try await refresher.refresh(RefreshTarget(owners: [Self.bob.personal]), mode: .due) { _ in }
        #expect(his.done == 0)
        #expect(await refresher.lastRefresh(visibleTo: Self.bob) == his)
        #expect(await refresher.lastRefresh(visibleTo: Self.alice) == system)
    }

    @Test func anAdministratorsRefreshOfTheSystemListsIsEveryones() async throws {
        let harness = RefresherHarness(totalPages: 1)
        try await harness.add("films", movies: [603])
        // The timer's refresh (the moviesd user): the system's lists and its own, which it has none of.
        let timer = try await harness.refresher.refresh(RefreshTarget(owners: [.system, .user(LocalUser(uid: 999))]), mode: .due) { _ in }
        #expect(await harness.refresher.lastRefresh(visibleTo: Self.alice) == timer)
        #expect(await harness.refresher.lastRefresh(visibleTo: nil) == timer)
    }
}
