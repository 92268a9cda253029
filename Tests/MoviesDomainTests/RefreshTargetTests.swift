import MoviesDomain
import MoviesTestSupport
import Testing

/// Who joins whose refresh (issue 31): progress names lists and queries, so a user joins only a
/// refresh of their own lists (who follows one: `OwnerGateTests`).
@Suite struct RefreshTargetTests {
    static let alice = TestCaller(uid: 1001)
    static let bob = TestCaller(uid: 1002)

    @Test func aRefreshJoinsOnlyARunOverTheSameOwnersLists() {
        let alices = RefreshTarget(owners: [Self.alice.personal])
        #expect(alices.covers(RefreshTarget(owners: [Self.alice.personal], name: "films")))
        #expect(!RefreshTarget(owners: [Self.alice.personal], name: "films").covers(alices))
        #expect(!RefreshTarget.everything.covers(RefreshTarget(owners: [Self.bob.personal])), "bob would follow alice's steps")
        #expect(RefreshTarget.everything.covers(.everything))
        #expect(!alices.covers(RefreshTarget(owners: [Self.bob.personal])))
        #expect(RefreshTarget(owners: [.system, Self.alice.personal]).includes(Watchlist(name: "x", owner: .system)))
        #expect(!alices.includes(Watchlist(name: "x", owner: Self.bob.personal)))
    }
}
