import MoviesData
import MoviesDomain
import Testing

@Suite struct CacheKeyTests {
    private func query(_ text: String) throws -> MovieQuery { try #require(MovieQuery(text)) }

    @Test func equivalentQueriesShareAKey() throws {
        #expect(CacheKey.search(try query("  The   MATRIX "), page: 1, language: nil) == CacheKey.search(try query("the matrix"), page: 1, language: nil))
        #expect(CacheKey.search(try query("Cafe\u{301}"), page: 1, language: nil) == CacheKey.search(try query("Café"), page: 1, language: nil))
        #expect(CacheKey.search(try query("Straße"), page: 1, language: nil) == CacheKey.search(try query("STRASSE"), page: 1, language: nil))
    }

    @Test func pageAndLanguageAreDistinct() throws {
        let matrix = try query("matrix")
        let keys: Set = [
            CacheKey.search(matrix, page: 1, language: nil),
            CacheKey.search(matrix, page: 2, language: nil),
            CacheKey.search(matrix, page: 1, language: "de-DE"),
        ]
        #expect(keys.count == 3)
    }

    @Test func regionAndYearAreDistinctAndLeaveOldKeysAlone() throws {
        let matrix = try query("matrix")
        let plain = CacheKey.search(matrix, page: 1, language: nil)
        #expect(plain == "search/movie?query=matrix&language=&page=1", "the key moviesd 0.1 wrote")
        let keys: Set = [
            plain,
            CacheKey.search(matrix, page: 1, language: nil, region: "GB"),
            CacheKey.search(matrix, page: 1, language: nil, region: "US"),
            CacheKey.search(matrix, page: 1, language: nil, year: 1999),
            CacheKey.search(matrix, page: 1, language: nil, region: "GB", year: 1999),
        ]
        #expect(keys.count == 5)
        for key in keys { #expect(key.hasPrefix(CacheKey.searchPrefix(matrix)), "invalidate and purge find it: \(key)") }
        let request = try SearchRequest(query: matrix, page: 2, language: "de-DE", region: "DE", year: 2003)
        #expect(CacheKey.search(request) == "search/movie?query=matrix&language=de-DE&page=2&region=DE&year=2003")
        #expect(CacheKey.language(ofKey: CacheKey.search(request)) == "de-DE")
    }

    @Test func everyPageSharesTheQueryPrefix() throws {
        let matrix = try query("Matrix")
        #expect(CacheKey.search(matrix, page: 7, language: "fr").hasPrefix(CacheKey.searchPrefix(matrix)))
        #expect(!CacheKey.search(try query("matrix reloaded"), page: 1, language: nil).hasPrefix(CacheKey.searchPrefix(matrix)))
        #expect(CacheKey.movie(id: 603, language: "en").hasPrefix(CacheKey.moviePrefix(id: 603)))
        #expect(!CacheKey.movie(id: 6030, language: nil).hasPrefix(CacheKey.moviePrefix(id: 603)))
    }

    @Test func aQueryCannotForgeAnotherKey() throws {
        let forged = CacheKey.search(try query("a&language=&page=2"), page: 1, language: nil)
        #expect(forged != CacheKey.search(try query("a"), page: 2, language: nil))
        #expect(!forged.contains("a&language"))
    }

    @Test func posterKeysIncludeSize() {
        #expect(CacheKey.poster(path: "/x.jpg", size: .w92) != CacheKey.poster(path: "/x.jpg", size: .w185))
        #expect(CacheKey.poster(path: "/x.jpg", size: .w92).hasPrefix(CacheKey.posterPrefix))
    }
}
