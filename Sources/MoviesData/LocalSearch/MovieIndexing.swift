import FoundationEssentials
import MoviesDomain
import MoviesWire

/// What the local search index holds of a cached response: every movie of a search page, or the
/// movie of a details response, in the language the request asked for. Read from the stored
/// response by the index's upkeep (after the response is stored) and by the migration that
/// indexes an existing cache.
public enum MovieIndexing {
    /// The entries for a search page fetched in `language` (`nil`: TMDB's default).
    public static func entries(of page: MoviesPage, language: String?, fetchedAt: Date) -> [IndexedMovie] {
        page.movies.compactMap { entry(of: $0, language: language, fetchedAt: fetchedAt) }
    }

    /// The entry for a movie's details fetched in `language`: listed as the summary a search
    /// page would have shown.
    public static func entries(of details: MovieDetails, language: String?, fetchedAt: Date) -> [IndexedMovie] {
        let movie = Movie(
            id: details.id, title: details.title, originalTitle: details.originalTitle, overview: details.overview,
            releaseDate: details.releaseDate, posterPath: details.posterPath, voteAverage: details.voteAverage,
            originalLanguage: details.originalLanguage, popularity: details.popularity)
        return entry(of: movie, language: language, fetchedAt: fetchedAt).map { [$0] } ?? []
    }

    /// The entries for a stored response: from its reply (the value in the interface's shape,
    /// decoded by `WireCoding`) or, for a row stored before replies were, from TMDB's body.
    /// `[]` for anything but a search page or a movie's details, or a body that does not decode.
    public static func entries(of response: StoredResponse) -> [IndexedMovie] {
        guard response.httpStatus == 200 else { return [] }
        let language = CacheKey.language(ofKey: response.key)
        let reply = response.reply(atVersion: WireCoding.version)
        switch response.resource {
        case .search:
            let page = reply.flatMap { try? WireCoding.decode(MoviesPage.self, from: $0) }
                ?? (try? MoviesResponseDTO.decode(response.body).toDomain())
            return page.map { entries(of: $0, language: language, fetchedAt: response.fetchedAt) } ?? []
        case .movie:
            let details = reply.flatMap { try? WireCoding.decode(MovieDetails.self, from: $0) }
                ?? (try? MovieDetailsDTO.decode(response.body).toDomain())
            return details.map { entries(of: $0, language: language, fetchedAt: response.fetchedAt) } ?? []
        default:
            return []
        }
    }

    private static func entry(of movie: Movie, language: String?, fetchedAt: Date) -> IndexedMovie? {
        guard let summary = try? WireCoding.bytes(movie) else { return nil }
        return IndexedMovie(
            movieID: movie.id, language: language ?? "", title: SearchText.folded(movie.title),
            originalTitle: SearchText.folded(movie.originalTitle ?? ""), overview: SearchText.folded(movie.overview ?? ""),
            popularity: movie.popularity ?? 0, summary: Data(summary), fetchedAt: fetchedAt)
    }
}
