import Foundation
import Testing
import TMDBStub

struct MovieCatalogueTests {
    static let catalogue = MovieCatalogue(seed: 42, count: 2_000)

    @Test func sameSeedGivesSameCatalogueAndOtherSeedDiffers() {
        let again = MovieCatalogue(seed: 42, count: 2_000)
        let other = MovieCatalogue(seed: 43, count: 2_000)
        #expect(again.movies == Self.catalogue.movies)
        #expect(other.movies.map(\.title) != Self.catalogue.movies.map(\.title))
    }

    @Test func catalogueHasAtLeastTwoThousandVariedMovies() {
        let movies = Self.catalogue.movies
        #expect(movies.count >= 2_000)
        #expect(Set(movies.map(\.id)).count == movies.count)
        #expect(movies.contains { $0.posterPath == nil })
        #expect(movies.contains { $0.backdropPath == nil })
        #expect(movies.contains { $0.releaseDate.isEmpty })
        #expect(movies.contains { $0.homepage == nil } && movies.contains { $0.homepage == "" })
        #expect(movies.filter { $0.overview.count >= 200 }.count > movies.count / 2)
        let nonASCII = movies.filter { $0.title.unicodeScalars.contains { !$0.isASCII } }
        #expect(nonASCII.count > 100)
        for language in ["fr", "ru", "el", "ja", "zh", "ko", "ar", "hi"] {
            #expect(movies.contains { $0.originalLanguage == language }, "no movie in \(language)")
        }
    }

    @Test func wellKnownMoviesAreAtTheirRealIDs() {
        #expect(Self.catalogue.movie(id: 603)?.title == "The Matrix")
        #expect(Self.catalogue.movie(id: 550)?.title == "Fight Club")
        #expect(Self.catalogue.movie(id: 27205)?.title == "Inception")
        #expect(Self.catalogue.movie(id: 1) == nil)
    }

    @Test(arguments: ["matrix", "star", "love", "night"])
    func commonWordsMatchSeveralPages(word: String) {
        let results = Self.catalogue.search(query: word)
        #expect(results.count > 60)
        #expect(results.allSatisfy { ($0.title + $0.originalTitle).lowercased().contains(word) })
        #expect(results.allSatisfy { !$0.adult })
    }

    /// The byte-pair index narrows the scan without changing a result: every search equals a scan
    /// of every movie's folded key (one-byte, multi-byte, non-Latin and unmatched queries).
    @Test(arguments: ["e", "st", "matrix", "the night", "é", "ночь", "の", "x-1", "paced-1000-17", "ab\ncd", "zzqqxx"])
    func searchFindsWhatAScanOfEveryTitleFinds(query: String) {
        let needle = query.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        let scanned = Self.catalogue.movies
            .filter { !$0.adult && $0.searchKey.utf8.count >= needle.utf8.count && Array($0.searchKey.utf8).contains(needle.utf8) }
            .sorted { ($0.popularity, -$0.id) > ($1.popularity, -$1.id) }
        #expect(Self.catalogue.search(query: query).map(\.id) == scanned.map(\.id))
    }

    @Test func searchIgnoresCaseAndDiacriticsAndIsStable() {
        #expect(Self.catalogue.search(query: "tHe MaTrIx").contains { $0.id == 603 })
        let accented = Self.catalogue.search(query: "Rêve")
        #expect(!accented.isEmpty)
        #expect(Self.catalogue.search(query: "reve").map(\.id) == accented.map(\.id))
        #expect(Self.catalogue.search(query: "star").map(\.id) == Self.catalogue.search(query: "STAR").map(\.id))
        #expect(Self.catalogue.search(query: "zzqqxx").isEmpty)
    }

    @Test func yearFilterKeepsOnlyThatYear() {
        let results = Self.catalogue.search(query: "matrix", year: 1999)
        #expect(results.contains { $0.id == 603 })
        #expect(results.allSatisfy { $0.releaseDate.hasPrefix("1999-") })
    }
}
