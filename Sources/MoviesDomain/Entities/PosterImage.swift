import FoundationEssentials

/// Poster image bytes at one of TMDB's sizes.
public struct PosterImage: Sendable, Hashable {
    public var bytes: Data
    /// `image/jpeg`, `image/png`...
    public var mimeType: String
    /// The chosen TMDB size.
    public var size: PosterSize

    /// Creates a poster image.
    public init(bytes: Data, mimeType: String, size: PosterSize) {
        self.bytes = bytes
        self.mimeType = mimeType
        self.size = size
    }
}
