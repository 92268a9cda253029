@testable import MoviesCLI
import MoviesWire
import Testing

@Suite struct RecentQueriesViewModelTests {
    @Test func listsQueriesNewestFirst() {
        let client = MockMoviesClient()
        client.recentResult = .success(RecentQueriesReply(queries: ["matrix", "alien"]))
        let viewModel = RecentQueriesViewModel(client: client)
        var json: [String] = []
        viewModel.didReceiveReply = { parameters, _ in json.append(String(decoding: parameters.serialized(), as: UTF8.self)) }

        viewModel.didLoad(limit: 5)

        #expect(viewModel.items == ["matrix", "alien"])
        #expect(!viewModel.isEmpty)
        #expect(client.recentLimits == [5])
        #expect(json == [#"{"queries":["matrix","alien"]}"#])
    }

    @Test func errorLeavesTheListEmpty() {
        let client = MockMoviesClient()
        client.recentResult = .failure(.permissionDenied("no"))
        let viewModel = RecentQueriesViewModel(client: client)

        viewModel.didLoad(limit: nil)

        #expect(viewModel.isEmpty)
        #expect(viewModel.error == .permissionDenied("no"))
    }
}
