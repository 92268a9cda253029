import MoviesDomain
import MoviesTestSupport
import Testing

/// A `WatchlistRepository` in a dictionary.
actor DictionaryWatchlistRepository: WatchlistRepository {
    struct Key: Hashable {
        let owner: Owner
        let name: String
    }

    var lists: [Key: Watchlist] = [:]
    /// Whose lists each read asked for (`nil`: everyone's).
    var reads: [Set<Owner>?] = []

    func watchlists() -> [Watchlist] {
        reads.append(nil)
        return sorted()
    }

    func watchlists(of owners: Set<Owner>) -> [Watchlist] {
        reads.append(owners)
        return sorted().filter { owners.contains($0.owner) }
    }

    private func sorted() -> [Watchlist] { lists.values.sorted { ($0.owner.description, $0.name) < ($1.owner.description, $1.name) } }

    func forgetReads() { reads = [] }

    func add(to name: String, owner: Owner, queries: [WatchlistQuery], movieIDs: [Int]) -> Watchlist {
        var list = lists[Key(owner: owner, name: name)] ?? Watchlist(name: name, owner: owner)
        list.add(queries: queries, movieIDs: movieIDs)
        lists[Key(owner: owner, name: name)] = list
        return list
    }

    func remove(from name: String, owner: Owner, queries: [MovieQuery], movieIDs: [Int]) throws -> Watchlist {
        guard var list = lists[Key(owner: owner, name: name)] else { throw MoviesError.noSuchWatchlist(name) }
        list.remove(queries: queries, movieIDs: movieIDs)
        lists[Key(owner: owner, name: name)] = list
        return list
    }

    func delete(_ name: String, owner: Owner) -> Bool { lists.removeValue(forKey: Key(owner: owner, name: name)) != nil }
}

@Suite struct ManageWatchlistsUseCaseTests {
    static let admin = TestCaller(uid: 900, administers: true)
    static let root = TestCaller.root
    static let alice = TestCaller(uid: 1001)
    static let bob = TestCaller(uid: 1002)

    @Test("a user's calls read their own lists (and an administrator's the system's) alone, so no answer nor its time depends on another user's")
    func aCallReadsTheListsOfTheOwnersItConcernsAlone() async throws {
        let repository = DictionaryWatchlistRepository()
        let useCase = ManageWatchlistsUseCase(repository: repository, quotas: UserQuotas(watchlists: 1))
        _ = try await useCase.add(to: "secret", in: try Self.alice.scope(), queries: [], movieIDs: [11], pages: nil)
        _ = try await useCase.add(to: "mine", in: try Self.bob.scope(), queries: [], movieIDs: [12], pages: nil)
        _ = try await useCase.add(to: "films", in: try Self.admin.scope(system: true), queries: [], movieIDs: [603], pages: nil)
        await repository.forgetReads()
        // Bob on alice's name: each error as for any name, from his own lists.
        await #expect(throws: MoviesError.self) { try await useCase.delete("secret", in: try Self.bob.scope()) }
        await #expect(throws: MoviesError.self) { _ = try await useCase.add(to: "secret", in: try Self.bob.scope(), queries: [], movieIDs: [1], pages: nil) }
        _ = try await useCase.refreshTarget("secret", in: try Self.bob.scope())
        #expect(try await useCase.list(in: try Self.bob.scope(.visible)).map(\.name) == ["films", "mine"])
        let bobs = Set([Self.bob.personal])
        #expect(await repository.reads == [bobs, bobs, bobs, bobs, Set([.system, Self.bob.personal])])
        await repository.forgetReads()
        _ = try await useCase.owner(of: "films", in: try Self.admin.scope())
        #expect(await repository.reads == [Set([Self.admin.personal, .system])])
    }

    @Test func aWatchlistHoldsAtMost500QueriesWithAClearError() async throws {
        // Before: one watchlist accepted 10,000 queries (a 30,000-step refresh).
        let useCase = ManageWatchlistsUseCase(repository: DictionaryWatchlistRepository())
        _ = try await useCase.add(to: "big", in: try Self.admin.scope(system: true), queries: (0..<499).map { "query \($0)" }, movieIDs: [], pages: nil)
        // A query already there does not count twice.
        _ = try await useCase.add(to: "big", in: try Self.admin.scope(system: true), queries: ["query 1", "query 499"], movieIDs: [], pages: nil)
        do {
            _ = try await useCase.add(to: "big", in: try Self.admin.scope(system: true), queries: ["one too many"], movieIDs: [], pages: nil)
            Issue.record("accepted a 501st query")
        } catch let error as MoviesError {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("at most 500 queries"))
        }
        #expect(try await useCase.list(in: try Self.admin.scope(.visible)).first?.queries.count == 500)
    }

    @Test func limitsMoviesListsAndQueryLength() async throws {
        let useCase = ManageWatchlistsUseCase(repository: DictionaryWatchlistRepository())
        await #expect(throws: MoviesError.self) {
            _ = try await useCase.add(to: "m", in: try Self.admin.scope(system: true), queries: [], movieIDs: Array(1...1_001), pages: nil)
        }
        await #expect(throws: MoviesError.self) {
            _ = try await useCase.add(to: "q", in: try Self.admin.scope(system: true), queries: [String(repeating: "x", count: 201)], movieIDs: [], pages: nil)
        }
        for index in 0..<ManageWatchlistsUseCase.maxWatchlists {
            _ = try await useCase.add(to: "list\(index)", in: try Self.admin.scope(system: true), queries: ["x"], movieIDs: [], pages: nil)
        }
        await #expect(throws: MoviesError.self) {
            _ = try await useCase.add(to: "one more", in: try Self.admin.scope(system: true), queries: ["x"], movieIDs: [], pages: nil)
        }
        // An existing list still takes additions.
        #expect(try await useCase.add(to: "list0", in: try Self.admin.scope(), queries: ["y"], movieIDs: [], pages: nil).queries.count == 2)
    }

    @Test func addsWithTheDefaultDepthAndTrimsTheName() async throws {
        let useCase = ManageWatchlistsUseCase(repository: DictionaryWatchlistRepository())
        let list = try await useCase.add(to: "  films ", in: try Self.alice.scope(), queries: ["the  matrix"], movieIDs: [603], pages: nil)
        #expect(list.name == "films")
        #expect(list.owner == Self.alice.personal)
        #expect(list.queries.map(\.query.query) == ["the matrix"])
        #expect(list.queries.map(\.pages) == [WatchlistQuery.defaultPages])
        #expect(try await useCase.list(in: try Self.alice.scope(.visible)).map(\.name) == ["films"])
    }

    @Test(arguments: [("", ["x"], [Int](), Int?.none), ("films", [], [], nil), ("films", [" "], [], nil),
                      ("films", ["x"], [], 0), ("films", ["x"], [], 501), ("films", [], [-1], nil),
                      (String(repeating: "n", count: 65), ["x"], [], nil), ("a\u{1}b", ["x"], [], nil)])
    func rejectsBadInput(name: String, queries: [String], ids: [Int], pages: Int?) async {
        let useCase = ManageWatchlistsUseCase(repository: DictionaryWatchlistRepository())
        await #expect(throws: MoviesError.self) { try await useCase.add(to: name, in: try Self.alice.scope(), queries: queries, movieIDs: ids, pages: pages) }
    }

    @Test func removesAndDeletes() async throws {
        let useCase = ManageWatchlistsUseCase(repository: DictionaryWatchlistRepository())
        _ = try await useCase.add(to: "films", in: try Self.alice.scope(), queries: ["Heat", "Alien"], movieIDs: [1, 2], pages: 2)
        let list = try await useCase.remove(from: "films", in: try Self.alice.scope(), queries: ["HEAT"], movieIDs: [2])
        #expect(list.queries.map(\.query.query) == ["Alien"])
        #expect(list.movieIDs == [1])
        try await useCase.delete("films", in: try Self.alice.scope())
        await #expect(throws: MoviesError.noSuchWatchlist("films")) { try await useCase.delete("films", in: try Self.alice.scope()) }
    }

    @Test("each user sees the system's lists and their own; a name means their own first")
    func personalListsArePrivateAndShadowSystemOnes() async throws {
        let useCase = ManageWatchlistsUseCase(repository: DictionaryWatchlistRepository())
        _ = try await useCase.add(to: "films", in: try Self.admin.scope(system: true), queries: [], movieIDs: [1], pages: nil)
        // Alice's "films" is her own: the system's is not hers to change.
        let alices = try await useCase.add(to: "films", in: try Self.alice.scope(), queries: [], movieIDs: [2], pages: nil)
        #expect(alices.owner == Self.alice.personal)
        _ = try await useCase.add(to: "secret", in: try Self.bob.scope(), queries: ["bob's query"], movieIDs: [], pages: nil)

        let seenByAlice = try await useCase.list(in: try Self.alice.scope(.visible))
        #expect(seenByAlice.map(\.owner) == [.system, Self.alice.personal])
        #expect(!seenByAlice.contains { $0.name == "secret" })
        #expect(try await useCase.list(in: try TestCaller.nobody(.visible)).map(\.owner) == [.system])
        // Bob's list does not exist for Alice: the same NotFound as a name nobody uses.
        await #expect(throws: MoviesError.noSuchWatchlist("secret")) { try await useCase.delete("secret", in: try Self.alice.scope()) }
        await #expect(throws: MoviesError.noSuchWatchlist("nothing")) { try await useCase.delete("nothing", in: try Self.alice.scope()) }
        // Naming Bob's or the system's explicitly is refused without saying whether it exists.
        #expect(throws: MoviesError.self) { try Self.alice.scope(system: true) }
        for owner: UInt32 in [Self.bob.uid, 4242] {
            #expect(throws: MoviesError.self) { try Self.alice.scope(owner: owner) }
        }
        #expect(throws: MoviesError.self) { try Self.alice.scope(.visible, allUsers: true) }
        // An administrator's name means the system's list while they have none of their own.
        #expect(try await useCase.add(to: "films", in: try Self.admin.scope(), queries: [], movieIDs: [3], pages: nil).owner == .system)
        // Root sees and manages everyone's.
        #expect(try await useCase.list(in: try Self.root.scope(.visible, allUsers: true)).count == 3)
        try await useCase.delete("secret", in: Self.root.scope(owner: Self.bob.uid))
        #expect(try await useCase.list(in: try Self.bob.scope(.visible)).map(\.owner) == [.system])
    }

    @Test("a user's lists and entries are bounded by [Users], each limit named")
    func quotasNameTheLimit() async throws {
        let useCase = ManageWatchlistsUseCase(repository: DictionaryWatchlistRepository(), quotas: UserQuotas(watchlists: 2, entries: 3, pendingEdits: 1))
        _ = try await useCase.add(to: "a", in: try Self.alice.scope(), queries: ["x"], movieIDs: [], pages: nil)
        _ = try await useCase.add(to: "b", in: try Self.alice.scope(), queries: ["y"], movieIDs: [], pages: nil)
        do {
            _ = try await useCase.add(to: "c", in: try Self.alice.scope(), queries: ["z"], movieIDs: [], pages: nil)
            Issue.record("a third list was accepted")
        } catch let error as MoviesError {
            #expect(error.code == .quotaExceeded)
            #expect(error.quota?.name == "WatchlistsPerUser")
            #expect(error.quota?.maximum == 2)
            // Which quota, and how to raise it (issue 45).
            #expect(error.message == "you have 2 watchlists, your share ([Users] WatchlistsPerUser=2); delete one first, or have an administrator raise it in /etc/moviesd/moviesd.conf.d/*.conf")
        }
        _ = try await useCase.add(to: "a", in: try Self.alice.scope(), queries: [], movieIDs: [1], pages: nil)
        do {
            _ = try await useCase.add(to: "b", in: try Self.alice.scope(), queries: [], movieIDs: [2], pages: nil)
            Issue.record("a fourth entry was accepted")
        } catch let error as MoviesError {
            #expect(error.quota?.name == "EntriesPerUser")
            #expect(error.message.hasSuffix("more than your share ([Users] EntriesPerUser=3); remove some first, or have an administrator raise it in /etc/moviesd/moviesd.conf.d/*.conf"))
        }
        // Another user's share is their own; the system's lists are not counted.
        _ = try await useCase.add(to: "c", in: try Self.bob.scope(), queries: ["z"], movieIDs: [], pages: nil)
        _ = try await useCase.add(to: "big", in: try Self.admin.scope(system: true), queries: [], movieIDs: Array(1...50), pages: nil)
    }
}
