import MoviesData
import MoviesDomain
import Varlink

// The parameters of a call, read once: the reader every method uses (typed reads that answer the
// first bad parameter with the interface's error), and the checked parameters of the methods that
// share them (`Search`, `Movie`, the watchlist edits), with what a call's stage on the event loop
// hands on to its task (`PlannedCall`).

/// Reads typed call parameters, turning a missing or mistyped one into
/// `org.varlink.service.InvalidParameter` naming it. Which names a method takes is checked before,
/// against the interface file (`VarlinkRouter`).
struct ParameterReader {
    let call: VarlinkCall

    init(_ call: VarlinkCall) {
        self.call = call
    }

    func requiredString(_ name: String) throws(VarlinkError) -> String {
        guard let value = try optionalString(name) else { throw VarlinkError.invalidParameter(name) }
        return value
    }

    func optionalString(_ name: String) throws(VarlinkError) -> String? {
        guard let value = call.parameter(name), !value.isNull else { return nil }
        guard let string = value.stringValue else { throw VarlinkError.invalidParameter(name) }
        return string
    }

    func requiredInt(_ name: String) throws(VarlinkError) -> Int {
        guard let value = try optionalInt(name) else { throw VarlinkError.invalidParameter(name) }
        return value
    }

    func optionalInt(_ name: String) throws(VarlinkError) -> Int? {
        guard let value = call.parameter(name), !value.isNull else { return nil }
        guard let int = value.intValue, let narrowed = Int(exactly: int) else { throw VarlinkError.invalidParameter(name) }
        return narrowed
    }

    func optionalBool(_ name: String) throws(VarlinkError) -> Bool? {
        guard let value = call.parameter(name), !value.isNull else { return nil }
        guard let bool = value.boolValue else { throw VarlinkError.invalidParameter(name) }
        return bool
    }

    func optionalDouble(_ name: String) throws(VarlinkError) -> Double? {
        guard let value = call.parameter(name), !value.isNull else { return nil }
        guard let double = value.doubleValue, double.isFinite else { throw VarlinkError.invalidParameter(name) }
        return double
    }

    func policy(_ name: String = "policy") throws(VarlinkError) -> FetchPolicy {
        guard let raw = try optionalString(name) else { return .default }
        guard let policy = FetchPolicy(rawValue: raw) else { throw VarlinkError.invalidParameter(name) }
        return policy
    }
}

extension ParameterReader {
    /// An optional array of strings; a missing or null one is empty.
    func strings(_ name: String) throws(VarlinkError) -> [String] {
        guard let value = call.parameter(name), !value.isNull else { return [] }
        guard let array = value.arrayValue else { throw VarlinkError.invalidParameter(name) }
        var strings: [String] = []
        for element in array {
            guard let string = element.stringValue else { throw VarlinkError.invalidParameter(name) }
            strings.append(string)
        }
        return strings
    }

    /// An optional array of integers; a missing or null one is empty.
    func ints(_ name: String) throws(VarlinkError) -> [Int] {
        guard let value = call.parameter(name), !value.isNull else { return [] }
        guard let array = value.arrayValue else { throw VarlinkError.invalidParameter(name) }
        var ints: [Int] = []
        for element in array {
            guard let int = element.intValue, let narrowed = Int(exactly: int) else { throw VarlinkError.invalidParameter(name) }
            ints.append(narrowed)
        }
        return ints
    }
}

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

/// The parameters `AddToWatchlist` and `RemoveFromWatchlist` share: the list, its queries and movies.
struct WatchlistEditCall {
    let name: String
    let queries: [String]
    let movieIDs: [Int]

    /// Reads them from `call`; throws the `InvalidParameter` error for the first bad one.
    init(_ call: VarlinkCall) throws(VarlinkError) {
        let reader = ParameterReader(call)
        name = try reader.requiredString("name")
        queries = try reader.strings("queries")
        movieIDs = try reader.ints("movieIds")
    }
}

/// A `Search` or `Movie` call as its stage on the event loop left it for its task (handed on in
/// ``VarlinkCall/carried``): its parameters read once, and, when memory held its entry, that
/// lookup and the plan made from it. The task reads the database only when memory did not.
struct PlannedCall<Parameters: Sendable>: Sendable {
    /// The call's parameters, checked.
    var parameters: Parameters
    /// The entry memory held (`nil`: not in memory; the task looks it up).
    var lookup: CacheLookup?
    /// The plan made from `lookup`.
    var plan: FetchPlan?

    /// What `call`'s stage on the loop handed on, else its parameters read now (a call that did not
    /// pass that stage, or whose parameters it could not read: `read` throws the caller's error).
    static func of(_ call: VarlinkCall, read: () throws(VarlinkError) -> Parameters) throws(VarlinkError) -> PlannedCall {
        if let planned = call.carried.value as? PlannedCall { return planned }
        return PlannedCall(parameters: try read())
    }
}
