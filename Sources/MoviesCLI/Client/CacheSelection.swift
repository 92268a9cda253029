/// Which cached entries `movies cache invalidate|purge` applies to.
public enum CacheSelection: Sendable, Hashable {
    /// Every entry.
    case all
    /// Every page and language of one search query.
    case query(String)
    /// One movie's details.
    case movie(id: Int)
    /// Every poster image.
    case posters
}
