import MoviesDomain

/// Catalogue titles matching a search, most popular first.
public struct CatalogueMatches: Sendable, Hashable {
    /// How many titles match, counted no further than `CatalogueMatches.countLimit`.
    public var total: Int
    /// The titles asked for.
    public var titles: [CatalogueTitle]

    /// The most matches counted (a search counts no further).
    public static let countLimit = 500

    /// Creates matches.
    public init(total: Int, titles: [CatalogueTitle]) {
        self.total = total
        self.titles = titles
    }
}
