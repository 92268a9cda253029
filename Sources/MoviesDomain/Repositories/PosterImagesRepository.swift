/// Poster images; immutable once fetched, so a cached poster never needs the network.
public protocol PosterImagesRepository: Sendable {
    /// The poster at `path` in `size`, from the cache or TMDB's image server.
    func posterImage(path: String, size: PosterSize, policy: FetchPolicy, emit: EmitFetched<PosterImage>) async throws
}
