import MoviesDomain
import Testing

/// Who joins and follows whose refresh (issue 31): progress names lists and queries, so a user
/// joins or follows only a refresh of their own lists.
@Suite struct RefreshTargetTests {
    static let alice = Caller(user: LocalUser(uid: 1001), isAdministrator: false)
    static let bob = Caller(user: LocalUser(uid: 1002), isAdministrator: false)
    static let root = Caller(user: .root, isAdministrator: true)

    @Test func aRefreshJoinsOnlyARunOverTheSameOwnersLists() {
        let alices = RefreshTarget(owners: [Self.alice.personal])
        #expect(alices.covers(RefreshTarget(owners: [Self.alice.personal], name: "films")))
        #expect(!RefreshTarget(owners: [Self.alice.personal], name: "films").covers(alices))
        #expect(!RefreshTarget.everything.covers(RefreshTarget(owners: [Self.bob.personal])), "bob would follow alice's steps")
        #expect(RefreshTarget.everything.covers(.everything))
        #expect(!alices.covers(RefreshTarget(owners: [Self.bob.personal])))
    }

    @Test func onlyRootAndTheOwnerFollowARefresh() {
        let alices = RefreshTarget(owners: [Self.alice.personal])
        #expect(alices.mayBeFollowed(by: Self.alice))
        #expect(alices.mayBeFollowed(by: Self.root))
        #expect(!alices.mayBeFollowed(by: Self.bob))
        #expect(!RefreshTarget.everything.mayBeFollowed(by: Self.alice))
        #expect(!RefreshTarget(owners: [.system]).mayBeFollowed(by: nil))
        #expect(RefreshTarget(owners: [.system, Self.alice.personal]).includes(Watchlist(name: "x", owner: .system)))
        #expect(!alices.includes(Watchlist(name: "x", owner: Self.bob.personal)))
    }
}
