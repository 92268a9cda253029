/// A request to TMDB, independent of transport and credentials.
public enum RemoteRequest: Sendable, Hashable {
    /// `GET /3/search/movie?query&page&language`
    case search(query: String, page: Int, language: String?)
    /// `GET /3/movie/{id}?language`
    case movie(id: Int, language: String?)
    /// `GET /3/configuration`
    case configuration
    /// `GET {secure_base_url}{size}{path}` on TMDB's image server.
    case image(baseURL: String, size: String, path: String)
}
