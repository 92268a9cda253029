import MoviesDomain
import Testing

@Suite struct SearchRequestTests {
    let matrix = MovieQuery("matrix")!

    @Test(arguments: [0, -1, 501, 10_000])
    func pagesOutsideTheBoundAreRejected(page: Int) {
        #expect {
            _ = try SearchRequest(query: matrix, page: page)
        } throws: { error in
            (error as? MoviesError)?.code == .invalidArgument
        }
    }

    @Test(arguments: [1, 2, 500])
    func pagesInsideTheBoundAreAccepted(page: Int) throws {
        #expect(try SearchRequest(query: matrix, page: page).page == page)
    }

    @Test func languageTagsAreValidated() throws {
        #expect(try SearchRequest(query: matrix, language: "en-US").language == "en-US")
        #expect(try SearchRequest(query: matrix, language: "de").language == "de")
        for bad in ["english", "e", "en_US", "en-", "../x"] {
            #expect(throws: MoviesError.self) { try SearchRequest(query: matrix, language: bad) }
        }
    }
}
