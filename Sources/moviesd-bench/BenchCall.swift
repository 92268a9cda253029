import Varlink

/// One call a measurement sends: a `Search` of a query's page, or a `Movie` (details).
struct BenchCall: Sendable, CustomStringConvertible {
    let method: String
    let parameters: [String: JSONValue]
    let description: String

    /// `Search` for `target` under `policy`.
    static func search(_ target: SearchTarget, policy: String) -> BenchCall {
        BenchCall(method: "io.moviesd.Movies.Search", parameters: target.parameters(policy: policy), description: target.description)
    }

    /// `Movie` for `id` under `policy`.
    static func movie(_ id: Int, policy: String) -> BenchCall {
        BenchCall(method: "io.moviesd.Movies.Movie", parameters: ["id": .int(Int64(id)), "policy": .string(policy)], description: "movie \(id)")
    }

    /// The NUL-terminated message.
    var message: [UInt8] {
        var bytes = JSONValue.object(["method": .string(method), "parameters": .object(parameters)]).serialized()
        bytes.append(0)
        return bytes
    }
}
