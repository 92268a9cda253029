import FoundationEssentials

/// One page of `GET /3/movie/changes`: the ids of movies changed in a date window.
public struct ChangedMoviesDTO: Decodable, Sendable {
    /// One changed movie.
    public struct Item: Decodable, Sendable {
        public var id: Int
    }

    public var page: Int
    public var totalPages: Int
    public var results: [Item]

    enum CodingKeys: String, CodingKey {
        case page, results
        case totalPages = "total_pages"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        page = try container.decode(Int.self, forKey: .page)
        totalPages = try container.decodeIfPresent(Int.self, forKey: .totalPages) ?? page
        results = try container.decode([Lenient<Item>].self, forKey: .results).compactMap(\.value)
    }

    /// Decodes a response body.
    public static func decode(_ body: Data) throws -> ChangedMoviesDTO {
        try JSONDecoder().decode(ChangedMoviesDTO.self, from: body)
    }
}
