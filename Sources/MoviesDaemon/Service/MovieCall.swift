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

    /// Reads and checks `call`'s parameters (their names were checked against the interface).
    init(_ call: VarlinkCall) throws(VarlinkError) {
        let reader = ParameterReader(call.parameters)
        id = try reader.requiredInt("id")
        language = try reader.optionalString("language")
        policy = try reader.policy()
    }
}
