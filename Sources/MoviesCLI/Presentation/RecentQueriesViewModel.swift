import Varlink
/// The recent queries list, as in the seed's `MoviesQueryListViewModel`: input `didLoad(limit:)`,
/// outputs the queries (newest first), `isEmpty` and error.
final class RecentQueriesViewModel {
    private let client: any MoviesClient

    /// The recent queries, newest first.
    private(set) var items: [String] = []
    /// The error that ended the load, if any.
    private(set) var error: ClientError?
    /// Called with the daemon reply's parameters and whether more replies follow (`--json`).
    var didReceiveReply: ((_ parameters: JSONValue, _ continues: Bool) -> Void)?

    /// Whether there is nothing to show.
    var isEmpty: Bool { items.isEmpty }

    /// Creates the view model over `client`.
    init(client: any MoviesClient) { self.client = client }

    /// Loads at most `limit` recent queries (the daemon's default when `nil`).
    func didLoad(limit: Int?) {
        do {
            let reply = try client.recentQueries(limit: limit)
            didReceiveReply?(reply.parameters, reply.continues)
            items = reply.value.queries
            error = nil
        } catch let failure {
            error = failure
        }
    }
}
