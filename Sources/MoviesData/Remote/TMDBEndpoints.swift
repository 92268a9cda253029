import FoundationEssentials
import MoviesDomain
import Networking

/// The TMDB v3 endpoint for each `RemoteRequest` (DESIGN §5). Paths have no trailing slash.
enum TMDBEndpoints {
    /// `GET search/movie`, `GET movie/{id}`, `GET configuration`, or the absolute image URL
    /// (which never carries the credential). Throws `.invalidArgument` for an unusable image URL.
    static func endpoint(for request: RemoteRequest) throws -> Endpoint {
        switch request {
        case .search(let query, let page, let language, let region, let year):
            var items = [Endpoint.QueryItem("query", query), Endpoint.QueryItem("page", String(page))]
            if let language, !language.isEmpty { items.append(Endpoint.QueryItem("language", language)) }
            if let region, !region.isEmpty { items.append(Endpoint.QueryItem("region", region)) }
            if let year { items.append(Endpoint.QueryItem("year", String(year))) }
            items.append(Endpoint.QueryItem("include_adult", "false"))
            return Endpoint(path: "search/movie", queryItems: items, headers: jsonHeaders)
        case .movie(let id, let language):
            var items: [Endpoint.QueryItem] = []
            if let language, !language.isEmpty { items.append(Endpoint.QueryItem("language", language)) }
            return Endpoint(path: "movie/\(id)", queryItems: items, headers: jsonHeaders)
        case .configuration:
            return Endpoint(path: "configuration", headers: jsonHeaders)
        case .movieChanges(let start, let end, let page):
            let items = [Endpoint.QueryItem("start_date", start), Endpoint.QueryItem("end_date", end), Endpoint.QueryItem("page", String(page))]
            return Endpoint(path: "movie/changes", queryItems: items, headers: jsonHeaders)
        case .movieChangeKeys(let id, let start, let end):
            let items = [Endpoint.QueryItem("start_date", start), Endpoint.QueryItem("end_date", end)]
            return Endpoint(path: "movie/\(id)/changes", queryItems: items, headers: jsonHeaders)
        case .image(let baseURL, let size, let path):
            let base = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
            let file = path.hasPrefix("/") ? path : "/" + path
            let trimmedSize = String(size.drop { $0 == "/" }.reversed().drop { $0 == "/" }.reversed())
            guard !trimmedSize.isEmpty, !trimmedSize.contains("/"), file.count > 1,
                  let url = URL(string: base + trimmedSize + file),
                  let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil
            else {
                throw MoviesError.invalidArgument("The poster address could not be built from the image base URL, size and path.")
            }
            return Endpoint(url: url, requiresCredential: false)
        }
    }

    private static let jsonHeaders = ["Accept": "application/json"]
}
