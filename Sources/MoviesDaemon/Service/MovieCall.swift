import MoviesData
import MoviesDomain
import Varlink

/// The parameters of a `Movie` call, checked: what the method's use case runs.
struct MovieCall {
    var id: Int
    var language: String?
    var policy: FetchPolicy

    /// Where the details are cached (see `CacheKey`).
    var cacheKey: String { CacheKey.movie(id: id, language: language) }

    /// Reads and checks `call`'s parameters (their names were checked against the interface);
    /// a call without a language gets `defaultLanguage` (`[Remote] Language=`).
    init(_ call: VarlinkCall, defaultLanguage: String? = nil) throws(VarlinkError) {
        let reader = ParameterReader(call)
        id = try reader.requiredInt("id")
        language = try reader.optionalString("language") ?? defaultLanguage
        do {
            try SearchRequest.checkLanguage(language)
        } catch {
            throw error.varlinkError(parameter: "language")
        }
        policy = try reader.policy()
    }
}
