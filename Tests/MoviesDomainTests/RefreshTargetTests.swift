import MoviesDomain
import Testing

/// Who joins and follows whose refresh (issue 31): progress names lists and queries, so a user
/// joins or follows only a refresh of their own lists.
@Suite struct RefreshTargetTests {
    static let alice = Caller(user: LocalUser(uid: 1001), isAdministrator: false)
    static let bob = Caller(user: LocalUser(uid: 1002), isAdministrator: false)
    static let root = Caller(user: .root, isAdministrator: true)
    static let carol = Caller(user: LocalUser(uid: 1003), isAdministrator: true)

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
        // The admin group follows the system's lists' refresh (and their own), not a user's.
        #expect(RefreshTarget(owners: [.system]).mayBeFollowed(by: Self.carol))
        #expect(RefreshTarget(owners: [.system, Self.carol.personal]).mayBeFollowed(by: Self.carol))
        #expect(!RefreshTarget(owners: [.system]).mayBeFollowed(by: Self.alice))
        #expect(!alices.mayBeFollowed(by: Self.carol))
    }

    /// Whether a refresh runs and how the last one went (counts, times): the system's lists are
    /// everyone's business, a user's their own and root's.
    @Test func whoKnowsOfARefresh() {
        let alices = RefreshTarget(owners: [Self.alice.personal])
        #expect(RefreshTarget(owners: [.system]).isVisible(to: Self.alice))
        #expect(RefreshTarget(owners: [.system]).isVisible(to: nil))
        #expect(alices.isVisible(to: Self.alice) && alices.isVisible(to: Self.root))
        #expect(!alices.isVisible(to: Self.bob) && !alices.isVisible(to: Self.carol) && !alices.isVisible(to: nil))
        #expect(!RefreshTarget(owners: [.system, Self.bob.personal]).isVisible(to: Self.alice))
        #expect(RefreshTarget.everything.isVisible(to: Self.root) && !RefreshTarget.everything.isVisible(to: Self.carol))
    }
}
