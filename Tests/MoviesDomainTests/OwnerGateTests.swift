import MoviesDomain
import MoviesTestSupport
import Testing

/// The owner gate and the scopes it makes (issue 41): what a call may touch, decided once, from
/// the caller, the owner the call names and what its method declares.
@Suite struct OwnerGateTests {
    static let alice = TestCaller(uid: 1001)
    static let bob = TestCaller(uid: 1002)
    static let root = TestCaller.root
    static let carol = TestCaller(uid: 1003, administers: true)

    @Test("a method changing an owner's data names only what the caller manages; without credentials nothing")
    func managedCallsNameOnlyWhatTheCallerManages() throws {
        #expect(try Self.alice.scope().account == Self.alice.personal)
        #expect(try Self.alice.scope(system: false).named == Self.alice.personal)
        #expect(try Self.alice.scope(owner: 1001).named == Self.alice.personal)
        for refused in [{ try Self.alice.scope(system: true) }, { try Self.alice.scope(owner: 1002) }, { try Self.carol.scope(owner: 1001) },
                        { try TestCaller.nobody(.managed) }, { try Self.root.scope(.managed, allUsers: true) }] {
            #expect(throws: MoviesError.self) { _ = try refused() }
        }
        #expect(try Self.carol.scope(system: true).account == .system)
        #expect(try Self.root.scope(owner: 1001).named == Self.alice.personal)
        #expect(try Self.carol.scope().administered == [Self.carol.personal, .system])
        #expect(try Self.alice.scope().administered == [Self.alice.personal])
        #expect(try Self.root.scope().refreshed == nil, "root's refresh without a name: every owner's lists")
        #expect(try Self.carol.scope().refreshed == [.system, Self.carol.personal])
        #expect(try Self.root.scope(owner: 1001).refreshed == [Self.alice.personal])
    }

    @Test("a method declares what it may touch: its own data, the shared cache or what the caller may see")
    func whatAMethodDeclaresBoundsTheScope() throws {
        let own = try Self.root.scope(.own)
        #expect(own.user == .root && !own.mayManage(.system) && !own.mayManage(Self.alice.personal) && !own.maySee(RefreshTarget(owners: [.system])))
        let shared = try Self.root.scope(.shared)
        #expect(shared.user == nil && shared.own == nil && !shared.mayManage(.system))
        for reach in [OwnerReach.shared, .own, .visible] {
            #expect(throws: MoviesError.self, "\(reach)") { try Self.root.scope(reach, system: true) }
            #expect(throws: MoviesError.self, "\(reach)") { try Self.root.scope(reach, owner: 1001) }
        }
        #expect(throws: MoviesError.self) { try Self.root.scope(.own, allUsers: true) }
        #expect(throws: MoviesError.self) { try Self.alice.scope(.visible, allUsers: true) }
        #expect(try Self.root.scope(.visible, allUsers: true).listed == nil)
        #expect(try Self.alice.scope(.visible).listed == [.system, Self.alice.personal])
        #expect(try TestCaller.nobody(.visible).listed == [.system])
    }

    @Test func onlyRootAndTheOwnerFollowARefresh() throws {
        let alices = RefreshTarget(owners: [Self.alice.personal])
        let (alice, bob, root, carol) = (try Self.alice.scope(.visible), try Self.bob.scope(.visible), try Self.root.scope(.visible), try Self.carol.scope(.visible))
        #expect(alice.mayFollow(alices))
        #expect(root.mayFollow(alices))
        #expect(!bob.mayFollow(alices))
        #expect(!alice.mayFollow(.everything))
        #expect(try !TestCaller.nobody(.visible).mayFollow(RefreshTarget(owners: [.system])))
        // The admin group follows the system's lists' refresh (and their own), not a user's.
        #expect(carol.mayFollow(RefreshTarget(owners: [.system])))
        #expect(carol.mayFollow(RefreshTarget(owners: [.system, Self.carol.personal])))
        #expect(!alice.mayFollow(RefreshTarget(owners: [.system])))
        #expect(!carol.mayFollow(alices))
    }

    /// Whether a refresh runs and how the last one went (counts, times): the system's lists are
    /// everyone's business, a user's their own and root's.
    @Test func whoKnowsOfARefresh() throws {
        let alices = RefreshTarget(owners: [Self.alice.personal])
        let (alice, bob, root, carol) = (try Self.alice.scope(.visible), try Self.bob.scope(.visible), try Self.root.scope(.visible), try Self.carol.scope(.visible))
        let nobody = try TestCaller.nobody(.visible)
        #expect(alice.maySee(RefreshTarget(owners: [.system])))
        #expect(nobody.maySee(RefreshTarget(owners: [.system])))
        #expect(alice.maySee(alices) && root.maySee(alices))
        #expect(!bob.maySee(alices) && !carol.maySee(alices) && !nobody.maySee(alices))
        #expect(!alice.maySee(RefreshTarget(owners: [.system, Self.bob.personal])))
        #expect(root.maySee(.everything) && !carol.maySee(.everything))
    }
}
