import MoviesData
import MoviesDomain
import Varlink

/// The parameters of a `Search` call, checked: what the method's use case runs.
struct SearchCall {
    var request: SearchRequest
    var policy: FetchPolicy
    var maxStaleSeconds: Int?
    /// Whether TMDB's answer saves the query to the caller's recent queries (`remember`, default true).
    var remember: Bool

    /// Where the page is cached (see `CacheKey`).
    var cacheKey: String { CacheKey.search(request) }

    /// Reads and checks `call`'s parameters (their names were checked against the interface); throws the `InvalidParameter`/`InvalidArgument`
    /// error the caller gets for the first bad one. A call without `language` asks in
    /// `defaultLanguage` (`[Remote] Language=`; `nil`: TMDB's default).
    init(_ call: VarlinkCall, defaultLanguage: String?) throws(VarlinkError) {
        let reader = ParameterReader(call)
        let text = try reader.requiredString("query")
        guard let query = MovieQuery(text) else {
            throw MoviesError.invalidArgument("query must not be empty").varlinkError(parameter: "query")
        }
        let page = try reader.optionalInt("page") ?? 1
        let language = try reader.optionalString("language") ?? defaultLanguage
        let region = try reader.optionalString("region")
        let year = try reader.optionalInt("year")
        policy = try reader.policy()
        remember = try reader.optionalBool("remember") ?? true
        maxStaleSeconds = try reader.optionalInt("maxStaleSeconds")
        if let maxStaleSeconds, maxStaleSeconds < 0 {
            throw MoviesError.invalidArgument("maxStaleSeconds must not be negative").varlinkError(parameter: "maxStaleSeconds")
        }
        do {
            request = try SearchRequest(query: query, page: page, language: language, region: region, year: year)
        } catch {
            throw error.varlinkError(parameter: error.parameter ?? "parameters")
        }
    }
}
