import FoundationEssentials
import MoviesDomain
import Testing

@Suite struct WatchlistTests {
    @Test func addMergesByCanonicalQueryAndRemoveDropsEntries() throws {
        var list = Watchlist(name: "films")
        list.add(queries: [try WatchlistQuery(query: #require(MovieQuery("Straße")))], movieIDs: [1, 1])
        list.add(queries: [try WatchlistQuery(query: #require(MovieQuery("STRASSE")), pages: 7)], movieIDs: [2])
        #expect(list.queries.count == 1)
        #expect(list.queries.first?.pages == 7)
        #expect(list.movieIDs == [1, 2])
        list.remove(queries: [try #require(MovieQuery("strasse"))], movieIDs: [1])
        #expect(list.queries.isEmpty)
        #expect(list.movieIDs == [2])
    }
}
