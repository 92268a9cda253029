import FoundationEssentials
import MoviesDomain

/// TMDB's paginated list envelope (`GET /3/search/movie` and friends).
///
/// Unknown fields are ignored; a result that cannot be decoded is skipped rather than failing the
/// page; `total_pages: 0` (common in hand-written mocks) and `1` (TMDB's empty result) are both accepted.
public struct MoviesResponseDTO: Decodable, Sendable {
    public var page: Int
    public var totalPages: Int
    public var totalResults: Int
    public var results: [MovieDTO]

    enum CodingKeys: String, CodingKey {
        case page, results
        case totalPages = "total_pages"
        case totalResults = "total_results"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        page = try container.decode(Int.self, forKey: .page)
        totalPages = try container.decodeIfPresent(Int.self, forKey: .totalPages) ?? page
        totalResults = try container.decodeIfPresent(Int.self, forKey: .totalResults) ?? 0
        let lenient = try container.decode([Lenient<MovieDTO>].self, forKey: .results)
        results = lenient.compactMap(\.value)
    }

    /// The domain page, movies in TMDB's order.
    public func toDomain() -> MoviesPage {
        MoviesPage(page: page, totalPages: max(totalPages, 1), totalResults: totalResults, movies: results.map { $0.toDomain() })
    }

    /// Decodes a page from the raw body.
    public static func decode(_ body: Data) throws -> MoviesResponseDTO {
        try JSONDecoder().decode(MoviesResponseDTO.self, from: body)
    }
}

/// Decodes a value, or yields `nil` instead of failing the enclosing array.
struct Lenient<Value: Decodable>: Decodable {
    let value: Value?
    init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
    }
}
