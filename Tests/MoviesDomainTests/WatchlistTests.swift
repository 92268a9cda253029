import FoundationEssentials
import MoviesDomain
import Testing

@Suite struct WatchlistTests {
    @Test func wireShapeUsesMovieIdsAndPlainQueryStrings() throws {
        let list = Watchlist(name: "films", queries: [try WatchlistQuery(query: #require(MovieQuery("Heat")), pages: 2)], movieIDs: [11])
        let json = String(decoding: try WireCoding.makeEncoder().encode(list), as: UTF8.self)
        #expect(json == #"{"movieIds":[11],"name":"films","queries":[{"pages":2,"query":"Heat"}]}"#)
        #expect(try WireCoding.makeDecoder().decode(Watchlist.self, from: Data(json.utf8)) == list)
    }

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
