@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing

@Suite struct SearchResultsTerminalViewTests {
    static let movies = [
        Fixtures.movie(603, "The Matrix"),
        Fixtures.movie(129, "千と千尋の神隠し", year: "2001", vote: 8.5),
        Fixtures.movie(194, "Le Fabuleux Destin d'Ame\u{0301}lie Poulain, a very long title indeed", year: "2001", vote: 7.9),
        Fixtures.movie(496_243, "기생충", year: "2019", vote: nil),
    ]

    func viewModel(replies: [SearchReply], error: ClientError? = nil) -> SearchMoviesViewModel {
        let client = MockMoviesClient()
        client.searchScripts[1] = .init(replies: replies, error: error)
        return SearchMoviesViewModel(client: client)
    }

    func finished(_ viewModel: SearchMoviesViewModel, terminal: TerminalCapabilities) -> (view: SearchResultsTerminalView, sink: BufferSink) {
        let sink = BufferSink()
        let view = SearchResultsTerminalView(terminal: terminal, output: sink)
        viewModel.didChange = { view.update(viewModel) }
        viewModel.didSearch(query: "q")
        view.finish(viewModel)
        return (view, sink)
    }

    @Test(arguments: [40, 80, 120])
    func onATerminalEveryLineFitsTheWidthAndOnlyTitlesAreShortened(width: Int) {
        let model = viewModel(replies: [Fixtures.search(Fixtures.page(1, of: 1, Self.movies), Fixtures.cached(age: 7_200))])
        let view = SearchResultsTerminalView(terminal: TerminalCapabilities(isTTY: true, width: width, usesColor: false), output: BufferSink())
        model.didSearch(query: "q")
        let lines = view.lines(for: model)
        let headerLines = lines.count - 1 - Self.movies.count  // the summary wraps, never cut
        #expect(headerLines >= 1)
        #expect(lines[headerLines].hasPrefix("Title ") && lines[headerLines].hasSuffix("ID"), "\(lines)")
        for line in lines { #expect(DisplayWidth.of(line) <= width, "\(line)") }
        #expect(lines[0].hasPrefix("\"q\": 2 results"))
        let summary = lines[..<headerLines].joined(separator: " ")
        #expect(summary.hasSuffix("cached 2 h ago"), "\(summary)")
        // Year, rating and id are never cut.
        for (row, movie) in zip(lines.dropFirst(headerLines + 1), Self.movies) { #expect(row.hasSuffix(" \(movie.id)"), "\(row)") }
    }

    /// Too narrow for every column (from 20 columns, the narrowest `--width` takes): the rating,
    /// then the year are left out, and each row fits with its ID whole, last.
    @Test(arguments: [20, 24, 28, 30, 32])
    func onANarrowTerminalRowsFitAndIDsStayWhole(width: Int) {
        let model = viewModel(replies: [Fixtures.search(Fixtures.page(1, of: 1, Self.movies), Fixtures.cached(age: 7_200))])
        let view = SearchResultsTerminalView(terminal: TerminalCapabilities(isTTY: true, width: width, usesColor: false), output: BufferSink())
        model.didSearch(query: "q")
        let rows = view.lines(for: model).suffix(Self.movies.count + 1)
        for line in rows { #expect(DisplayWidth.of(line) <= width, "\(line)") }
        #expect(rows.first?.hasSuffix("ID") == true, "\(rows)")
        for (row, movie) in zip(rows.dropFirst(), Self.movies) {
            #expect(row.hasSuffix(" \(movie.id)"), "\(row)")
        }
    }

    @Test(arguments: [20, 40, 80, 200])
    func pipedEveryFieldIsWholeOneMovieALine(width: Int) {
        let freshness = Freshness(origin: .localIndex, fetchedAt: Fixtures.fetchedAt, ageSeconds: 60, stale: true, remoteError: "offline")
        let model = viewModel(replies: [Fixtures.search(Fixtures.page(1, of: 1, Self.movies), freshness)])
        let view = SearchResultsTerminalView(terminal: TerminalCapabilities(isTTY: false, width: width, usesColor: false), output: BufferSink())
        model.didSearch(query: "revolutions matrix")
        let lines = view.lines(for: model)
        #expect(lines.count == 2 + Self.movies.count)  // summary, column headers, one line per movie
        #expect(lines[0] == "\"revolutions matrix\": 2 results, page 1 of 1 — offline — 2 matches among cached movies")
        #expect(lines[4].hasPrefix("Le Fabuleux Destin d'Ame\u{0301}lie Poulain, a very long title indeed · 2001 ·    7.9 ·    194"))
        #expect(!lines.joined().contains("…"))
    }

    @Test func columnsLineUpWithWideAndCombiningTitles() {
        let model = viewModel(replies: [Fixtures.search(Fixtures.page(1, of: 1, Self.movies), Fixtures.network)])
        let view = SearchResultsTerminalView(terminal: TerminalCapabilities(isTTY: true, width: 80, usesColor: false), output: BufferSink())
        model.didSearch(query: "q")
        let rows = Array(view.lines(for: model).dropFirst(2))
        let widths = Set(rows.map { DisplayWidth.of($0) })
        #expect(widths.count == 1)  // every row padded to the same width
        #expect(rows[1].hasPrefix("千と千尋の神隠し "))
        #expect(rows[2].contains("…"))
        #expect(rows[3].hasSuffix("496243"))
        #expect(rows[0].contains(" · 1999 ·    8.2 · "))
    }

    @Test func nonTTYPrintsOnlyTheFinalStateWithoutEscapes() {
        let cached = Fixtures.page(1, of: 1, [Fixtures.movie(1, "Old")])
        let fresh = Fixtures.page(1, of: 1, [Fixtures.movie(1, "New")])
        let model = viewModel(replies: [Fixtures.search(cached, Fixtures.cached(age: 60)), Fixtures.search(fresh, Fixtures.network)])
        let (_, sink) = finished(model, terminal: TerminalCapabilities(isTTY: false, width: 80, usesColor: false))
        #expect(!sink.text.contains("\u{1B}"))
        #expect(!sink.text.contains("Old"))
        #expect(sink.text.contains("New"))
        // --color=always on a pipe: colours, but still no cursor movement.
        let (_, coloured) = finished(model, terminal: TerminalCapabilities(isTTY: false, width: 80, usesColor: true))
        #expect(coloured.text.contains("\u{1B}[1mNew"))
        #expect(!coloured.text.contains("A\r") && !coloured.text.contains("\u{1B}[J") && !coloured.text.contains("Old"))
    }

    @Test func ttyShowsCachedThenReplacesInPlace() {
        let cached = Fixtures.page(1, of: 1, [Fixtures.movie(1, "Old")])
        let fresh = Fixtures.page(1, of: 1, [Fixtures.movie(1, "New")])
        let model = viewModel(replies: [Fixtures.search(cached, Fixtures.cached(age: 60)), Fixtures.search(fresh, Fixtures.network)])
        let (_, sink) = finished(model, terminal: TerminalCapabilities(isTTY: true, width: 80, usesColor: false))
        let old = sink.text.firstRange(of: "Old")
        let new = sink.text.firstRange(of: "New")
        #expect(old != nil && new != nil)
        if let old, let new { #expect(old.lowerBound < new.lowerBound) }
        #expect(sink.text.contains("\u{1B}[3A\r\u{1B}[J"))  // up over summary, column headers and one row, then clear
        #expect(!sink.text.contains("\u{1B}[1m"))  // no colour when colour is off
    }

    @Test func outputTallerThanTheTerminalIsPrintedBelowNotRedrawn() {
        let cached = Fixtures.page(1, of: 1, [Fixtures.movie(1, "Old"), Fixtures.movie(2, "Two")])
        let fresh = Fixtures.page(1, of: 1, [Fixtures.movie(1, "New"), Fixtures.movie(2, "Two")])
        let model = viewModel(replies: [Fixtures.search(cached, Fixtures.cached(age: 60)), Fixtures.search(fresh, Fixtures.network)])
        let (_, sink) = finished(model, terminal: TerminalCapabilities(isTTY: true, width: 80, usesColor: false, height: 3))
        #expect(!sink.text.contains("\u{1B}[3A"))
        #expect(sink.text.contains("New"))
        #expect(!sink.text.contains("Old"), "a rendering taller than the terminal is drawn once, final (the pager shows it once)")
    }

    @Test func ttyWithColourUsesANSI() {
        let model = viewModel(replies: [Fixtures.search(Fixtures.page(1, of: 1, Self.movies), Fixtures.network)])
        let (_, sink) = finished(model, terminal: TerminalCapabilities(isTTY: true, width: 80, usesColor: true))
        #expect(sink.text.contains("\u{1B}[1m"))
    }

    @Test func unchangedRenderingIsNotRedrawn() {
        let page = Fixtures.page(1, of: 1, [Fixtures.movie(1, "Same")])
        let revalidated = Freshness(origin: .cache, fetchedAt: Fixtures.fetchedAt, ageSeconds: 60, stale: false)
        let model = viewModel(replies: [Fixtures.search(page, revalidated), Fixtures.search(page, revalidated)])
        let (_, sink) = finished(model, terminal: TerminalCapabilities(isTTY: true, width: 80, usesColor: false))
        #expect(sink.text.split(separator: "Same", omittingEmptySubsequences: false).count == 3)  // cached (refreshing) + final line, not more
    }

    @Test func noColorEnvironmentDisablesColour() {
        let terminal = TerminalCapabilities.detect(fileDescriptor: -1, environment: ["NO_COLOR": "1", "COLUMNS": "100"])
        #expect(!terminal.usesColor)
        #expect(!terminal.isTTY)
        #expect(terminal.width == 100)
        #expect(TerminalCapabilities.detect(fileDescriptor: -1, environment: [:]).width == 80)
    }

    @Test func emptyResultSaysNoMoviesFound() {
        let model = viewModel(replies: [Fixtures.search(Fixtures.page(1, of: 1, []), Fixtures.network)])
        let (_, sink) = finished(model, terminal: TerminalCapabilities(isTTY: false, width: 80, usesColor: false))
        #expect(sink.text.hasPrefix("No movies found for \"q\"\n"))
    }

    @Test func aPagePastTheEndSaysSo() {
        let client = MockMoviesClient()
        client.searchScripts[10] = .init(replies: [Fixtures.search(Fixtures.page(10, of: 3, []), Fixtures.network)])
        let model = SearchMoviesViewModel(client: client)
        let view = SearchResultsTerminalView(terminal: TerminalCapabilities(isTTY: false, width: 200, usesColor: false), output: BufferSink())
        model.didSearch(query: "q", page: 10)
        let lines = view.lines(for: model)
        #expect(lines.first?.contains("Page 10 is past the last page (3)") == true, "\(lines)")
        #expect(lines.first?.contains("No movies found") == false)
    }
}
