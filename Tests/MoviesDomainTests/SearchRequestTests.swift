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

    @Test func regionsAreTwoUpperCaseLetters() throws {
        #expect(try SearchRequest(query: matrix, region: "GB").region == "GB")
        for bad in ["gb", "G", "GBR", "G1", "ÉS", ""] {
            #expect {
                _ = try SearchRequest(query: matrix, region: bad)
            } throws: { error in
                (error as? MoviesError)?.code == .invalidArgument && (error as? MoviesError)?.parameter == "region"
            }
        }
    }

    @Test func yearsAreFourDigitsInAPlausibleRange() throws {
        #expect(try SearchRequest(query: matrix, year: 1999).year == 1999)
        #expect(try SearchRequest(query: matrix, year: 1874).year == 1874)
        for bad in [0, 99, 1873, 2101, 19999, -1999] {
            #expect {
                _ = try SearchRequest(query: matrix, year: bad)
            } throws: { error in
                (error as? MoviesError)?.code == .invalidArgument && (error as? MoviesError)?.parameter == "year"
            }
        }
    }

    @Test func eachBadArgumentIsNamed() {
        #expect { _ = try SearchRequest(query: matrix, page: 0) } throws: { ($0 as? MoviesError)?.parameter == "page" }
        #expect { _ = try SearchRequest(query: matrix, language: "english") } throws: { ($0 as? MoviesError)?.parameter == "language" }
    }
}
