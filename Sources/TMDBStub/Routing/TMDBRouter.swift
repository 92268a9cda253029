/// Answers TMDB v3 requests from the catalogue, like api.themoviedb.org and image.tmdb.org would,
/// and the login and account routes from the stub's one ``StubAccount`` (not cached: no ETag or
/// Cache-Control, as they answer per session).
struct TMDBRouter: Sendable {
    let catalogue: MovieCatalogue
    let configuration: TMDBStubConfiguration
    let changes: StubChangeLog
    let account: StubAccount

    /// The answer to `request`; `port` is the main port, for the configuration's image base URL;
    /// `sessionsExpired` (the fault) turns every session-bearing route into 401 code 3.
    func response(to request: HTTPRequest, port: Int, sessionsExpired: Bool = false) -> HTTPResponse {
        let path = request.path
        if path.hasPrefix("/t/p/") { return CachingHeaders.apply(to: image(path: path), request: request, maxAge: configuration.maxAgeSeconds) }
        guard isAuthorized(request) else {
            return .tmdbError(status: 401, code: 7, message: "Invalid API key: You must be granted a valid key.")
        }
        let recording = request.method == "GET"
            ? configuration.recordings.first { $0.matches(path: path, query: request.query) } : nil
        if recording == nil, let route = AccountRoute(method: request.method, path: path) {
            return accountResponse(route, to: request, sessionsExpired: sessionsExpired)
        }
        guard request.method == "GET" else { return Self.notFound }
        let answer: HTTPResponse
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        if let recording {
            answer = recording.response
        } else if path == "/3/search/movie" {
            answer = search(request.query)
        } else if path == "/3/configuration" {
            answer = configurationResponse(port: port)
        } else if path == "/3/movie/changes" {
            answer = changedMovies(request.query)
        } else if components.count == 5, path.hasPrefix("/3/movie/"), components[4] == "changes" {
            answer = movieChanges(idText: String(components[3]), request.query)
        } else if components.count == 4, path.hasPrefix("/3/movie/"), !components[3].isEmpty {
            answer = movie(idText: String(components[3]))
        } else {
            answer = Self.notFound
        }
        return CachingHeaders.apply(to: answer, request: request, maxAge: configuration.maxAgeSeconds)
    }

    /// TMDB's 404 code 34.
    static let notFound = HTTPResponse.tmdbError(status: 404, code: 34, message: "The resource you requested could not be found.")

    private func isAuthorized(_ request: HTTPRequest) -> Bool {
        if let authorization = request.headers["authorization"], authorization == "Bearer \(configuration.token)" { return true }
        return request.query["api_key"] == configuration.apiKey
    }

    private func movie(idText: String) -> HTTPResponse {
        guard let id = Int(idText), id > 0 else { return Self.invalidID }
        guard var movie = catalogue.movie(id: id) else { return Self.notFound }
        let revisions = changes.titleRevisions(of: id)
        if revisions > 0 { movie.title += " (revision \(revisions))" }
        return .json(movie.detailsJSON)
    }

    private func search(_ query: [String: String]) -> HTTPResponse {
        guard let text = query["query"], !text.isEmpty else {
            return .json(.object([("errors", .array([.string("query must be provided")]))]), status: 422)
        }
        let pageText = query["page"] ?? "1"
        guard let page = Int(pageText), (1...500).contains(page) else {
            return Self.invalidPage
        }
        let includeAdult = query["include_adult"]?.lowercased() == "true"
        let year = (query["year"] ?? query["primary_release_year"]).flatMap { Int($0) }
        let matches = catalogue.search(query: text, includeAdult: includeAdult, year: year)
        let pageSize = 20
        let start = (page - 1) * pageSize
        let items = start < matches.count ? Array(matches[start..<min(matches.count, start + pageSize)]) : []
        return .json(.object([
            ("page", .int(page)),
            ("results", .array(items.map(\.searchResultJSON))),
            ("total_pages", .int(max(1, (matches.count + pageSize - 1) / pageSize))),
            ("total_results", .int(matches.count)),
        ]))
    }
}
