import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import MoviesWire

/// Test data: movies, pages, freshness records and replies.
enum Fixtures {
    static let fetchedAt = Date(timeIntervalSince1970: 1_795_000_000)

    static func movie(_ id: Int, _ title: String, year: String? = "1999", vote: Double? = 8.2) -> Movie {
        Movie(id: id, title: title, releaseDate: year.map { "\($0)-03-31" }, posterPath: "/p\(id).jpg", voteAverage: vote)
    }

    static func page(_ number: Int, of total: Int, _ movies: [Movie]) -> MoviesPage {
        MoviesPage(page: number, totalPages: total, totalResults: total * 2, movies: movies)
    }

    static func cached(age: Int, stale: Bool = false, remoteError: String? = nil) -> Freshness {
        Freshness(origin: .cache, fetchedAt: fetchedAt, ageSeconds: age, stale: stale, remoteError: remoteError)
    }

    static let network = Freshness(origin: .network, fetchedAt: fetchedAt, ageSeconds: 0, stale: false)

    static func search(_ page: MoviesPage, _ freshness: Freshness) -> SearchReply {
        SearchReply(page: page, freshness: freshness)
    }

    static let matrix = MovieDetails(
        id: 603, title: "The Matrix", originalTitle: "The Matrix", originalLanguage: "en",
        overview: "Set in the 22nd century, The Matrix tells the story of a computer hacker.",
        tagline: "Welcome to the Real World.", releaseDate: "1999-03-31", runtime: 136,
        genres: ["Action", "Science Fiction"], homepage: "https://www.warnerbros.com/movies/matrix",
        imdbID: "tt0133093", posterPath: "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg", voteAverage: 8.2, voteCount: 24_000
    )
}
