import Varlink

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
