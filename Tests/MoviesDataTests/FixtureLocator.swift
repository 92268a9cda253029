import MoviesTestSupport
import Testing

extension Fixtures.Entry: CustomTestStringConvertible {}

/// Sorts the shared TMDB fixtures (located by `Fixtures`) by what they hold.
enum FixtureLocator {
    /// What a manifest entry holds, decided from its endpoint, status and path.
    enum Kind: Sendable, CaseIterable {
        /// A paginated `{page, results, total_pages, total_results}` envelope (search, discover, lists).
        case listPage
        /// A `movie/{id}` record.
        case movieRecord
        /// `GET configuration`.
        case configuration
        /// A non-200 TMDB error body.
        case errorBody
        /// A single item of a results array.
        case listItem
        /// `genre/movie/list`: not decoded by moviesd.
        case genreList
        /// A recording wrapper (WireMock mapping, go-vcr cassette, replay file), not a bare body.
        case recordingWrapper
        /// Anything else: a new kind of fixture this file does not know yet.
        case unknown
    }

    /// The kind of `entry`.
    static func kind(of entry: Fixtures.Entry) -> Kind {
        if entry.file.contains("/mappings/") || entry.file.contains("/testdata/") { return .recordingWrapper }
        if entry.httpStatus != 200 { return .errorBody }
        let endpoint = entry.endpoint
        if endpoint.hasPrefix("configuration") { return .configuration }
        if endpoint.contains("genre/") { return .genreList }
        if endpoint.contains("results[] item") { return .listItem }
        if endpoint.hasPrefix("search/") || endpoint.hasPrefix("discover/") { return .listPage }
        if endpoint.hasPrefix("movie/") {
            let path = endpoint.dropFirst("movie/".count).split(separator: "?").first ?? ""
            let parts = path.split(separator: "/")
            if parts.count == 1, let first = parts.first, Int(first) != nil || first == "{id}" || first == "latest" {
                return .movieRecord
            }
            return .listPage
        }
        return .unknown
    }

    /// The manifest entries of `kind` (none when the fixtures are missing).
    static func entries(_ kind: Kind) -> [Fixtures.Entry] {
        Fixtures.manifest().filter { self.kind(of: $0) == kind }
    }

    /// Shown for every fixture test skipped because the fixtures are missing.
    static var skipComment: Comment { Comment(rawValue: Fixtures.missingReason) }
}
