@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing

@Suite struct MovieDetailsViewModelTests {
    @Test func detailsAreFormatted() {
        let client = MockMoviesClient()
        client.movieScript = .init(replies: [MovieReply(movie: Fixtures.matrix, freshness: Fixtures.network)])
        let viewModel = MovieDetailsViewModel(client: client, policy: .cacheFirst)

        viewModel.didLoad(id: 603)

        #expect(client.movieCalls.map(\.id) == [603])
        #expect(client.movieCalls.first?.policy == .cacheFirst)
        #expect(viewModel.title == "The Matrix")
        #expect(viewModel.factsLine == "1999 · 136 min · Action, Science Fiction · ★ 8.2 (24000 votes)")
        #expect(viewModel.tagline == "Welcome to the Real World.")
        #expect(viewModel.fields.contains(DetailField(label: "IMDb", value: "https://www.imdb.com/title/tt0133093/")))
        #expect(!viewModel.fields.contains { $0.label == "Original title" })
        #expect(viewModel.freshnessLine == "fresh from TMDB")
        #expect(!viewModel.isLoading)
    }

    @Test func notFoundIsAnError() {
        let client = MockMoviesClient()
        client.movieScript = .init(replies: [], error: .notFound(id: 9))
        let viewModel = MovieDetailsViewModel(client: client)

        viewModel.didLoad(id: 9)

        #expect(viewModel.error == .notFound(id: 9))
        #expect(!viewModel.hasDetails)
    }

    @Test func cachedThenRejectedKeepsDetails() {
        let client = MockMoviesClient()
        client.movieScript = .init(replies: [MovieReply(movie: Fixtures.matrix, freshness: Fixtures.cached(age: 300))], error: .remoteRejected("Invalid API key"))
        let viewModel = MovieDetailsViewModel(client: client)

        viewModel.didLoad(id: 603)

        #expect(viewModel.error == nil)
        #expect(viewModel.hasDetails)
        #expect(viewModel.freshnessLine == "TMDB rejected the request — showing results cached 5 min ago")
    }
}
