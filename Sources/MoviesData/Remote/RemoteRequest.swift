/// A request to TMDB, independent of transport and credentials.
public enum RemoteRequest: Sendable, Hashable {
    /// `GET /3/search/movie?query&page&language&region&year`
    case search(query: String, page: Int, language: String?, region: String? = nil, year: Int? = nil)
    /// `GET /3/movie/{id}?language`
    case movie(id: Int, language: String?)
    /// `GET /3/configuration`
    case configuration
    /// `GET {secure_base_url}{size}{path}` on TMDB's image server.
    case image(baseURL: String, size: String, path: String)
    /// `GET /3/movie/changes?start_date&end_date&page`: ids of movies changed between two UTC
    /// dates (`YYYY-MM-DD`, at most 14 days apart), 100 a page.
    case movieChanges(startDate: String, endDate: String, page: Int)
    /// `GET /3/movie/{id}/changes?start_date&end_date`: what changed (the keys) in one movie.
    case movieChangeKeys(id: Int, startDate: String, endDate: String)
}

extension RemoteRequest {
    /// What the request is for, as the request metrics name it (`Endpoint.kind`): `search`,
    /// `movie`, `configuration`, `image`, `changes` (the change feed's pages) and `movie_changes`
    /// (one movie's changed keys). The account's requests are `account`.
    var kind: String {
        switch self {
        case .search: "search"
        case .movie: "movie"
        case .configuration: "configuration"
        case .image: "image"
        case .movieChanges: "changes"
        case .movieChangeKeys: "movie_changes"
        }
    }
}
