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
        // Every line fits but an address, which stands whole on its own line.
        for line in lines where !TextWrapping.isURL(line) { #expect(DisplayWidth.of(line) <= width, "\(line)") }
        #expect(!lines.joined().contains("\u{1B}"))
    }

    /// `COLUMNS=40 movies show 603` broke the homepage, IMDb, poster and TMDB addresses across
    /// lines: an address is never broken; wider than the column it goes whole on its own line.
    @Test(arguments: [30, 40, 60, 200])
    func addressesAreNeverBroken(width: Int) throws {
        let client = MockMoviesClient()
        client.movieScript = .init(replies: [MovieReply(movie: Fixtures.matrix, freshness: Fixtures.cached(age: 120))])
        let viewModel = MovieDetailsViewModel(client: client)
        viewModel.didLoad(id: 603)
        let lines = MovieDetailsTerminalView.lines(for: viewModel, terminal: TerminalCapabilities(isTTY: true, width: width, usesColor: false))
        let addresses = viewModel.fields.map(\.value).filter(TextWrapping.isURL)
        #expect(addresses.count >= 3, "\(viewModel.fields)")
        for address in addresses {
            #expect(lines.contains { $0 == address || $0.hasSuffix(": " + address) || $0.hasSuffix(" " + address) }, "\(address) broken: \(lines)")
        }
        #expect(!lines.contains { $0.hasSuffix(" ") }, "no label padded before nothing: \(lines)")
        for line in lines where DisplayWidth.of(line) > width {
            #expect(TextWrapping.isURL(line), "only an address is wider than the terminal: \(line)")
        }
    }

    @Test func aFieldListWithoutWholeAddressesStillFitsItsRows() {
        // browse's full screen: rows must fit, the address breaks after a '/'.
        let terminal = TerminalCapabilities(isTTY: true, width: 30, usesColor: false)
        let lines = FieldListView.lines([DetailField(label: "Poster", value: "https://image.tmdb.org/t/p/original/abc.jpg")], terminal: terminal)
        for line in lines { #expect(DisplayWidth.of(line) <= 30, "\(line)") }
    }
}
