/// What to search for: a query, a page and an optional language.
public struct SearchRequest: Sendable, Hashable {
    /// The highest page TMDB serves; larger pages are rejected locally, as TMDB does (code 22).
    public static let maxPage = 500

    public let query: MovieQuery
    public let page: Int
    /// A TMDB language tag such as `en-US`; `nil` means TMDB's default.
    public let language: String?

    /// Creates a request, validating the page against `1...maxPage`.
    public init(query: MovieQuery, page: Int = 1, language: String? = nil) throws(MoviesError) {
        guard (1...SearchRequest.maxPage).contains(page) else {
            throw MoviesError.invalidArgument("page must be between 1 and \(SearchRequest.maxPage), got \(page)")
        }
        if let language, !SearchRequest.isValidLanguage(language) {
            throw MoviesError.invalidArgument("language must look like 'en' or 'en-US', got '\(language)'")
        }
        self.query = query
        self.page = page
        self.language = language
    }

    static func isValidLanguage(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts[0].count == 2 else { return false }
        return parts.allSatisfy { part in
            (2...3).contains(part.count) && part.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
        }
    }
}
