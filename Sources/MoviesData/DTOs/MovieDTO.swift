import FoundationEssentials
import MoviesDomain

/// One item of a TMDB result list. Movie items carry `title`/`release_date`; TV items (search/tv)
/// carry `name`/`first_air_date`, which are accepted in their place.
public struct MovieDTO: Decodable, Sendable {
    public var id: Int
    public var title: String?
    public var name: String?
    public var originalTitle: String?
    public var originalName: String?
    public var overview: String?
    public var releaseDate: String?
    public var firstAirDate: String?
    public var posterPath: String?
    public var voteAverage: Double?
    public var originalLanguage: String?
    public var popularity: Double?

    enum CodingKeys: String, CodingKey {
        case id, title, name, overview, popularity
        case originalTitle = "original_title"
        case originalName = "original_name"
        case releaseDate = "release_date"
        case firstAirDate = "first_air_date"
        case posterPath = "poster_path"
        case voteAverage = "vote_average"
        case originalLanguage = "original_language"
    }

    /// The domain movie; `""` becomes `nil`.
    public func toDomain() -> Movie {
        Movie(
            id: id,
            title: title.nonEmpty ?? name.nonEmpty ?? "",
            originalTitle: originalTitle.nonEmpty ?? originalName.nonEmpty,
            overview: overview.nonEmpty,
            releaseDate: releaseDate.nonEmpty ?? firstAirDate.nonEmpty,
            posterPath: posterPath.nonEmpty,
            voteAverage: voteAverage,
            originalLanguage: originalLanguage.nonEmpty,
            popularity: popularity
        )
    }
}

extension Optional where Wrapped == String {
    /// `nil` for `nil` and for the empty string, which TMDB uses interchangeably.
    var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}
