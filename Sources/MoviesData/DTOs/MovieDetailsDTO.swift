import FoundationEssentials
import MoviesDomain

/// TMDB's movie record (`GET /3/movie/{id}`). `homepage` and `release_date` may be `""` or null.
public struct MovieDetailsDTO: Decodable, Sendable {
    public struct GenreDTO: Decodable, Sendable {
        public var id: Int
        public var name: String
    }

    public var id: Int
    public var title: String?
    public var originalTitle: String?
    public var originalLanguage: String?
    public var overview: String?
    public var tagline: String?
    public var releaseDate: String?
    public var runtime: Int?
    public var genres: [GenreDTO]?
    public var homepage: String?
    public var imdbID: String?
    public var posterPath: String?
    public var backdropPath: String?
    public var voteAverage: Double?
    public var voteCount: Int?
    public var status: String?
    public var popularity: Double?

    enum CodingKeys: String, CodingKey {
        case id, title, overview, tagline, runtime, genres, homepage, status, popularity
        case originalTitle = "original_title"
        case originalLanguage = "original_language"
        case releaseDate = "release_date"
        case imdbID = "imdb_id"
        case posterPath = "poster_path"
        case backdropPath = "backdrop_path"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
    }

    /// The domain record; `""` and `runtime: 0` become `nil`.
    public func toDomain() -> MovieDetails {
        MovieDetails(
            id: id,
            title: title ?? "",
            originalTitle: originalTitle.nonEmpty,
            originalLanguage: originalLanguage.nonEmpty,
            overview: overview.nonEmpty,
            tagline: tagline.nonEmpty,
            releaseDate: releaseDate.nonEmpty,
            runtime: runtime.flatMap { $0 > 0 ? $0 : nil },
            genres: (genres ?? []).map(\.name),
            homepage: homepage.nonEmpty,
            imdbID: imdbID.nonEmpty,
            posterPath: posterPath.nonEmpty,
            backdropPath: backdropPath.nonEmpty,
            voteAverage: voteAverage,
            voteCount: voteCount,
            status: status.nonEmpty,
            popularity: popularity
        )
    }

    /// Decodes a record from the raw body.
    public static func decode(_ body: Data) throws -> MovieDetailsDTO {
        try JSONDecoder().decode(MovieDetailsDTO.self, from: body)
    }
}
