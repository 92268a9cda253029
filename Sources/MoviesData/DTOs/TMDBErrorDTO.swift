import FoundationEssentials

/// TMDB's error bodies: `{status_code, status_message, success:false}` (with or without
/// `success`, sometimes with `failure: true`) or `{"errors": [...]}` (422 validation errors).
public struct TMDBErrorDTO: Decodable, Sendable, Hashable {
    public var statusCode: Int?
    public var statusMessage: String?
    public var errors: [String]?

    enum CodingKeys: String, CodingKey {
        case errors
        case statusCode = "status_code"
        case statusMessage = "status_message"
    }

    /// One human sentence: the status message, or the validation errors joined.
    public var message: String? {
        if let statusMessage, !statusMessage.isEmpty { return statusMessage }
        if let errors, !errors.isEmpty { return errors.joined(separator: "; ") }
        return nil
    }

    /// Decodes an error body, or `nil` when the body is not one of TMDB's error shapes.
    public static func decode(_ body: Data) -> TMDBErrorDTO? {
        guard let dto = try? JSONDecoder().decode(TMDBErrorDTO.self, from: body),
              dto.statusCode != nil || dto.errors != nil else { return nil }
        return dto
    }
}
