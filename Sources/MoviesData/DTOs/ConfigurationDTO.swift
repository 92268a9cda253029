import FoundationEssentials

/// TMDB's `GET /3/configuration`: where images live and which sizes exist.
public struct ConfigurationDTO: Decodable, Sendable, Hashable {
    public struct ImagesDTO: Decodable, Sendable, Hashable {
        public var baseURL: String?
        public var secureBaseURL: String
        public var posterSizes: [String]

        enum CodingKeys: String, CodingKey {
            case baseURL = "base_url"
            case secureBaseURL = "secure_base_url"
            case posterSizes = "poster_sizes"
        }
    }

    public var images: ImagesDTO

    /// Decodes a configuration from the raw body.
    public static func decode(_ body: Data) throws -> ConfigurationDTO {
        try JSONDecoder().decode(ConfigurationDTO.self, from: body)
    }
}
