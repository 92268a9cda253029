import MoviesDomain
import Testing

/// A `WatchlistRepository` in a dictionary.
actor DictionaryWatchlistRepository: WatchlistRepository {
    var lists: [String: Watchlist] = [:]

    func watchlists() -> [Watchlist] { lists.values.sorted { $0.name < $1.name } }

    func add(to name: String, queries: [WatchlistQuery], movieIDs: [Int]) -> Watchlist {
        var list = lists[name] ?? Watchlist(name: name)
        list.add(queries: queries, movieIDs: movieIDs)
        lists[name] = list
        return list
    }

    func remove(from name: String, queries: [MovieQuery], movieIDs: [Int]) throws -> Watchlist {
        guard var list = lists[name] else { throw MoviesError.invalidArgument("no list") }
        list.remove(queries: queries, movieIDs: movieIDs)
        lists[name] = list
        return list
    }

    func delete(_ name: String) -> Bool { lists.removeValue(forKey: name) != nil }
}

@Suite struct ManageWatchlistsUseCaseTests {
    @Test func aWatchlistHoldsAtMost500QueriesWithAClearError() async throws {
        // Before: one watchlist accepted 10,000 queries (a 30,000-step refresh).
        let useCase = ManageWatchlistsUseCase(repository: DictionaryWatchlistRepository())
        _ = try await useCase.add(to: "big", queries: (0..<499).map { "query \($0)" }, movieIDs: [], pages: nil)
        // A query already there does not count twice.
        _ = try await useCase.add(to: "big", queries: ["query 1", "query 499"], movieIDs: [], pages: nil)
        do {
            _ = try await useCase.add(to: "big", queries: ["one too many"], movieIDs: [], pages: nil)
            Issue.record("accepted a 501st query")
        } catch let error as MoviesError {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("at most 500 queries"))
        }
        #expect(try await useCase.list().first?.queries.count == 500)
    }

    @Test func limitsMoviesListsAndQueryLength() async throws {
        let useCase = ManageWatchlistsUseCase(repository: DictionaryWatchlistRepository())
        await #expect(throws: MoviesError.self) {
            _ = try await useCase.add(to: "m", queries: [], movieIDs: Array(1...1_001), pages: nil)
        }
        await #expect(throws: MoviesError.self) {
            _ = try await useCase.add(to: "q", queries: [String(repeating: "x", count: 201)], movieIDs: [], pages: nil)
        }
        for index in 0..<ManageWatchlistsUseCase.maxWatchlists {
            _ = try await useCase.add(to: "list\(index)", queries: ["x"], movieIDs: [], pages: nil)
        }
        await #expect(throws: MoviesError.self) {
            _ = try await useCase.add(to: "one more", queries: ["x"], movieIDs: [], pages: nil)
        }
        // An existing list still takes additions.
        #expect(try await useCase.add(to: "list0", queries: ["y"], movieIDs: [], pages: nil).queries.count == 2)
    }

    @Test func addsWithTheDefaultDepthAndTrimsTheName() async throws {
        let useCase = ManageWatchlistsUseCase(repository: DictionaryWatchlistRepository())
        let list = try await useCase.add(to: "  films ", queries: ["the  matrix"], movieIDs: [603], pages: nil)
        #expect(list.name == "films")
        #expect(list.queries.map(\.query.query) == ["the matrix"])
        #expect(list.queries.map(\.pages) == [WatchlistQuery.defaultPages])
        #expect(try await useCase.list().map(\.name) == ["films"])
    }

    @Test(arguments: [("", ["x"], [Int](), Int?.none), ("films", [], [], nil), ("films", [" "], [], nil),
                      ("films", ["x"], [], 0), ("films", ["x"], [], 501), ("films", [], [-1], nil),
                      (String(repeating: "n", count: 65), ["x"], [], nil), ("a\u{1}b", ["x"], [], nil)])
    func rejectsBadInput(name: String, queries: [String], ids: [Int], pages: Int?) async {
        let useCase = ManageWatchlistsUseCase(repository: DictionaryWatchlistRepository())
        await #expect(throws: MoviesError.self) { try await useCase.add(to: name, queries: queries, movieIDs: ids, pages: pages) }
    }

    @Test func removesAndDeletes() async throws {
        let useCase = ManageWatchlistsUseCase(repository: DictionaryWatchlistRepository())
        _ = try await useCase.add(to: "films", queries: ["Heat", "Alien"], movieIDs: [1, 2], pages: 2)
        let list = try await useCase.remove(from: "films", queries: ["HEAT"], movieIDs: [2])
        #expect(list.queries.map(\.query.query) == ["Alien"])
        #expect(list.movieIDs == [1])
        try await useCase.delete("films")
        await #expect(throws: MoviesError.noSuchWatchlist("films")) { try await useCase.delete("films") }
    }
}
