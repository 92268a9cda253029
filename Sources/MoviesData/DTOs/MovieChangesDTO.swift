import FoundationEssentials

/// `GET /3/movie/{id}/changes`: which keys of a movie changed (`title`, `overview`, `images`...).
/// The items' values are not read: what changed decides what is fetched again.
public struct MovieChangesDTO: Decodable, Sendable {
    /// One changed key.
    public struct Change: Decodable, Sendable {
        public var key: String
    }

    public var changes: [Change]

    /// Decodes a response body.
    public static func decode(_ body: Data) throws -> MovieChangesDTO {
        try JSONDecoder().decode(MovieChangesDTO.self, from: body)
    }
}
