import MoviesDomain

/// One row of a result list, already formatted for display.
struct MoviesListItemViewModel: Sendable, Hashable {
    /// The title.
    let title: String
    /// The release year, or "" when unknown.
    let year: String
    /// The average vote with one decimal, or "–" when nobody voted.
    let rating: String
    /// TMDB's id, as text.
    let id: String
    /// The poster's path, for `movies poster`.
    let posterPath: String?
    /// Whether the movie is known only from the catalogue (TMDB's daily ID export), not cached.
    let isCatalogueOnly: Bool

    /// What a terminal shows as the title: the title, and "not cached" for a catalogue title.
    var displayTitle: String { isCatalogueOnly ? title + " — not cached" : title }

    /// Formats `movie` for display.
    init(movie: Movie) {
        title = movie.title
        year = movie.releaseYear.map(String.init) ?? ""
        rating = RatingFormat.average(movie.voteAverage)
        id = String(movie.id)
        posterPath = movie.posterPath
        isCatalogueOnly = movie.catalogue == true
    }
}
