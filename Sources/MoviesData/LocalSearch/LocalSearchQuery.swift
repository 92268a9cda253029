/// A search of the local index: the user's text, the language the movies were fetched in, and
/// the page of results (of `pageSize`, like TMDB's pages).
public struct LocalSearchQuery: Sendable, Hashable {
    /// The text as typed (trimmed); matched by words and prefixes, or as a substring for
    /// scripts without spaces (CJK).
    public var text: String
    /// Only movies indexed in this language (`""`: TMDB's default).
    public var language: String
    /// 1-based.
    public var page: Int
    /// Results per page.
    public var pageSize: Int

    /// Creates a query.
    public init(text: String, language: String, page: Int = 1, pageSize: Int = 20) {
        self.text = text
        self.language = language
        self.page = max(1, page)
        self.pageSize = max(1, pageSize)
    }
}
