@testable import MoviesCLI
import MoviesWire
import Testing

@Suite struct MovieDetailsTerminalViewTests {
    @Test(arguments: [40, 80])
    func detailsFitTheWidth(width: Int) {
        let client = MockMoviesClient()
        client.movieScript = .init(replies: [MovieReply(movie: Fixtures.matrix, freshness: Fixtures.cached(age: 120))])
        let viewModel = MovieDetailsViewModel(client: client)
        viewModel.didLoad(id: 603)

        let lines = MovieDetailsTerminalView.lines(for: viewModel, terminal: TerminalCapabilities(isTTY: true, width: width, usesColor: false))

        #expect(lines.first == "The Matrix")
        #expect(lines.contains("cached 2 min ago"))
        #expect(lines.contains { $0.hasPrefix("IMDb:") })
        for line in lines { #expect(DisplayWidth.of(line) <= width, "\(line)") }
        #expect(!lines.joined().contains("\u{1B}"))
    }
}
