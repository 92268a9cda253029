import MoviesDomain

/// A search page in TMDB's shape (`GET /3/search/movie`), as the daemon receives it.
struct TMDBPageBody: Encodable {
    struct Result: Encodable {
        let id: Int
        let title: String
        let original_title: String?
        let overview: String?
        let release_date: String?
        let poster_path: String?
        let vote_average: Double?
        let original_language: String?
        let popularity: Double?
    }

    let page: Int
    let total_pages: Int
    let total_results: Int
    let results: [Result]

    init(_ value: MoviesPage) {
        page = value.page
        total_pages = value.totalPages
        total_results = value.totalResults
        results = value.movies.map {
            Result(
                id: $0.id, title: $0.title, original_title: $0.originalTitle, overview: $0.overview, release_date: $0.releaseDate,
                poster_path: $0.posterPath, vote_average: $0.voteAverage, original_language: $0.originalLanguage, popularity: $0.popularity)
        }
    }
}
