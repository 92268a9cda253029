/// Which cached entries a maintenance operation (invalidate, purge) applies to.
public enum CacheScope: Sendable, Hashable {
    /// Every entry.
    case all
    /// Every page and language of one search query.
    case search(MovieQuery)
    /// Every language of one movie's details.
    case movie(id: Int)
    /// Every poster image.
    case posters
}
