import FoundationEssentials

/// The JSON conventions shared by the daemon's replies and the client's decoding of them:
/// the domain types' Codable shapes are the Varlink interface's types, with dates as RFC 3339 UTC
/// strings (`2026-11-22T03:00:23Z`) and absent optionals omitted.
public enum WireCoding {
    /// An encoder for reply parameters.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A decoder for reply parameters.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
