import FoundationEssentials
import MoviesDomain
import MoviesWire

/// What the local search index holds of a cached response: every movie of a search page, or the
/// movie of a details response, in the language the request asked for. Read from the stored
/// response by the index's upkeep (after the response is stored) and by the migration that
/// indexes an existing cache.
public enum MovieIndexing {
    /// The version of the shape the summaries are written in (`IndexedMovie.summary`): the
    /// interface's, `WireCoding.version`. Stored with each (cache schema 11).
    public static let summaryVersion = WireCoding.version

    /// The entries for a stored response: from its reply (the value in the interface's shape,
    /// decoded by `WireCoding`) or, for a row stored before replies were, from TMDB's body.
    /// `[]` for anything but a search page or a movie's details, or a body that does not decode.
    public static func entries(of response: StoredResponse) -> [IndexedMovie] {
        let language = CacheKey.language(ofKey: response.key)
        return movies(of: response).compactMap { entry(of: $0, language: language, fetchedAt: response.fetchedAt) }
    }

    /// The movie a row of the index lists (STYLE 15): its summary when written at today's
    /// `summaryVersion` and still decoding; otherwise the movie as the stored responses that
    /// list it give it (`sources`, the source of truth, read only then, newest first); failing
    /// those (a response changed since it was indexed), its id and indexed title: a movie the
    /// index counts is never left out. `rederived` when the summary was not used.
    public static func movie(
        id: Int, title: String, summary: Data, version: Int?, sources: () throws -> [StoredResponse]
    ) rethrows -> (movie: Movie, rederived: Bool) {
        if version == summaryVersion, let movie = try? WireCoding.decode(Movie.self, from: Array(summary)) { return (movie, false) }
        let listed = try sources().lazy.compactMap { movies(of: $0).first { $0.id == id } }.first
        return (listed ?? Movie(id: id, title: title), true)
    }

    /// The movies of a stored search page or movie details; `[]` for anything else, or a body
    /// that does not decode.
    private static func movies(of response: StoredResponse) -> [Movie] {
        guard response.httpStatus == 200 else { return [] }
        let reply = response.reply(atVersion: WireCoding.version)
        switch response.resource {
        case .search:
            let page = reply.flatMap { try? WireCoding.decode(MoviesPage.self, from: $0) }
                ?? (try? MoviesResponseDTO.decode(response.body).toDomain())
            return page?.movies ?? []
        case .movie:
            let details = reply.flatMap { try? WireCoding.decode(MovieDetails.self, from: $0) }
                ?? (try? MovieDetailsDTO.decode(response.body).toDomain())
            return details.map { [summary(of: $0)] } ?? []
        default:
            return []
        }
    }

    /// A movie's details as a search page would list it.
    private static func summary(of details: MovieDetails) -> Movie {
        Movie(
            id: details.id, title: details.title, originalTitle: details.originalTitle, overview: details.overview,
            releaseDate: details.releaseDate, posterPath: details.posterPath, voteAverage: details.voteAverage,
            originalLanguage: details.originalLanguage, popularity: details.popularity)
    }

    private static func entry(of movie: Movie, language: String?, fetchedAt: Date) -> IndexedMovie? {
        guard let summary = try? WireCoding.bytes(movie) else { return nil }
        return IndexedMovie(
            movieID: movie.id, language: language ?? "", title: SearchText.folded(movie.title),
            originalTitle: SearchText.folded(movie.originalTitle ?? ""), overview: SearchText.folded(movie.overview ?? ""),
            popularity: movie.popularity ?? 0, summary: Data(summary), fetchedAt: fetchedAt)
    }
}
