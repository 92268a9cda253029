/// Renders a `SearchMoviesViewModel`. As a table (`OutputFormat.table`): a header with the
/// freshness line, then rows "title · year · rating · id" under column headers; on a TTY it fits
/// the width (titles shortened, labels wrapped) and redraws in place (cursor up over the rows it
/// printed) whenever the rendering changes; elsewhere it prints the final state once, whole, as
/// plain text without control sequences. As TSV (`OutputFormat.tsv`, the default when standard
/// output is not a terminal): the final state once, one movie a line, its title, year, rating and
/// id separated by tabs, with no header and no padding (an unknown year or rating is an empty
/// field); the summary, the freshness and "no movies found" go to `notes` instead (standard error
/// when it is a terminal), so a script reads records only.
final class SearchResultsTerminalView {
    private static let separator = " · "
    private let terminal: TerminalCapabilities
    private let output: any TextSink
    private let format: OutputFormat
    private let notes: (any TextSink)?
    private var shownLines: [String] = []

    /// Creates a view writing `format` (table or TSV) to `output` for a terminal with `terminal`'s
    /// capabilities; with TSV, the lines that are not records go to `notes` (`nil`: nowhere).
    init(terminal: TerminalCapabilities, output: any TextSink, format: OutputFormat = .table, notes: (any TextSink)? = nil) {
        self.terminal = terminal
        self.output = output
        self.format = format
        self.notes = notes
    }

    /// Redraws `viewModel` in place on a TTY; does nothing elsewhere (see `finish`). A rendering
    /// taller than the terminal is not drawn before the final one: it could not be redrawn in
    /// place, and long output goes through the pager, which should show it once.
    func update(_ viewModel: SearchMoviesViewModel) {
        guard terminal.isTTY, format == .table else { return }
        let lines = lines(for: viewModel)
        guard terminal.rows(lines) < terminal.height ?? Int.max else { return }
        draw(lines)
    }

    /// Shows the final state of `viewModel`: redrawn in place on a TTY, printed once elsewhere.
    func finish(_ viewModel: SearchMoviesViewModel) {
        guard format == .tsv else { return draw(lines(for: viewModel)) }
        let notes = noteLines(for: viewModel)
        if !notes.isEmpty { self.notes?.write(notes.map { $0 + "\n" }.joined()) }
        output.write(Self.records(viewModel.items).map { $0 + "\n" }.joined())
    }

    /// The TSV records of `items`: title, year, rating and id, tab-separated.
    static func records(_ items: [MoviesListItemViewModel]) -> [String] {
        items.map { item in
            let rating = item.rating == RatingFormat.noVotes ? "" : item.rating
            return [item.title, item.year, rating, item.id].map(OutputFormat.field).joined(separator: "\t")
        }
    }

    /// What the table says besides its rows (the summary and freshness, or why nothing is
    /// listed), unstyled: TSV's notes.
    private func noteLines(for viewModel: SearchMoviesViewModel) -> [String] {
        guard viewModel.error == nil else { return [] }
        if viewModel.isEmpty { return [emptyMessage(viewModel)] + (viewModel.freshnessLine.map { [$0] } ?? []) }
        return [summary(viewModel)]
    }

    /// The lines that show `viewModel`. On a terminal they fit its width: only titles are
    /// shortened (with "…"), the summary and freshness label wrap. Piped or in a file every field
    /// is whole and each movie is one line.
    func lines(for viewModel: SearchMoviesViewModel) -> [String] {
        let color = terminal.usesColor
        if viewModel.isEmpty {
            if viewModel.loading != nil {
                guard terminal.isTTY else { return [] }
                return terminal.wrapped("Searching for \"\(viewModel.query)\"…").map { ANSIStyle.dim.apply($0, enabled: color) }
            }
            if viewModel.error != nil { return [] }
            var empty = terminal.wrapped(emptyMessage(viewModel))
            if let freshness = viewModel.freshnessLine {
                empty += terminal.wrapped(freshness).map { ANSIStyle.dim.apply($0, enabled: color) }
            }
            return empty
        }
        return header(for: viewModel) + rows(for: viewModel.items)
    }

    /// Why nothing is listed.
    private func emptyMessage(_ viewModel: SearchMoviesViewModel) -> String {
        let pastTheEnd = viewModel.totalResults > 0 && viewModel.currentPage > viewModel.totalPageCount
        return pastTheEnd
            ? "Page \(viewModel.currentPage) is past the last page (\(viewModel.totalPageCount)) of \"\(viewModel.query)\" (\(viewModel.totalResults) results); try --page \(viewModel.totalPageCount)"
            : viewModel.isFromLocalIndex
                ? "No matches for \"\(viewModel.query)\" in the local index of cached movies"
                : "No movies found for \"\(viewModel.query)\""
    }

    /// "\"matrix\": 176 results, page 1 of 9 — fresh from TMDB".
    private func summary(_ viewModel: SearchMoviesViewModel) -> String {
        let count = viewModel.totalResults == 1 ? "1 result" : "\(viewModel.totalResults) results"
        var text = "\"\(viewModel.query)\": \(count), page \(viewModel.currentPage) of \(viewModel.totalPageCount)"
        if let freshness = viewModel.freshnessLine { text += " — " + freshness }
        return text
    }

    private func header(for viewModel: SearchMoviesViewModel) -> [String] {
        let text = summary(viewModel)
        let offline = viewModel.freshnessLine.map(FreshnessLine.isDegraded) ?? false
        return terminal.wrapped(text).map { (offline ? ANSIStyle.yellow : ANSIStyle.dim).apply($0, enabled: terminal.usesColor) }
    }

    /// The column headers, in row order.
    static let columnTitles = ["Title", "Year", "Rating", "ID"]

    /// The narrowest a title is shortened to on a terminal. Where even that does not fit, the
    /// rating and then the year are left out, so that a row fits and its ID stays whole.
    static let minimumTitleWidth = 6

    private func rows(for items: [MoviesListItemViewModel]) -> [String] {
        let titles = Self.columnTitles
        let separatorWidth = DisplayWidth.of(Self.separator)
        func width(_ column: Int, _ value: (MoviesListItemViewModel) -> String) -> Int {
            (items.map { DisplayWidth.of(value($0)) } + [DisplayWidth.of(titles[column])]).max() ?? 0
        }
        // Year, rating and ID, in row order after the title: each with its cells and width.
        var columns: [(column: Int, width: Int, value: (MoviesListItemViewModel) -> String, alignRight: Bool)] = [
            (1, width(1, \.year), \.year, false), (2, width(2, \.rating), \.rating, true), (3, width(3, \.id), \.id, true),
        ]
        var fixed: Int { columns.reduce(0) { $0 + $1.width + separatorWidth } }
        if terminal.isTTY {
            for leftOut in [2, 1] where terminal.width - fixed < Self.minimumTitleWidth {
                columns.removeAll { $0.column == leftOut }
            }
        }
        let longestTitle = (items.map { DisplayWidth.of(TextFitting.printable($0.displayTitle)) } + [DisplayWidth.of(titles[0])]).max() ?? 0
        // Columns line up on the longest title; only a terminal's width may shorten titles.
        let titleWidth = terminal.isTTY ? max(min(longestTitle, terminal.width - fixed), Self.minimumTitleWidth) : longestTitle
        let color = terminal.usesColor
        let headerCells = [TextFitting.fit(titles[0], to: titleWidth)]
            + columns.map { TextFitting.fit(titles[$0.column], to: $0.width, alignRight: $0.alignRight) }
        let header = ANSIStyle.dim.apply(headerCells.joined(separator: Self.separator), enabled: color)
        return [header] + items.map { item in
            let cells = [TextFitting.fit(item.displayTitle, to: titleWidth)]
                + columns.map { TextFitting.fit($0.value(item), to: $0.width, alignRight: $0.alignRight) }
            guard color else { return cells.joined(separator: Self.separator) }
            var styled = cells
            styled[0] = ANSIStyle.bold.apply(cells[0], enabled: true)
            styled[styled.count - 1] = ANSIStyle.cyan.apply(cells[cells.count - 1], enabled: true)
            return styled.joined(separator: ANSIStyle.dim.apply(Self.separator, enabled: true))
        }
    }

    private func draw(_ lines: [String]) {
        guard lines != shownLines else { return }
        // Up over what we printed, then clear to the end of the screen; when that has scrolled past
        // the top (taller than the terminal), print the new state below instead.
        // Rows, not lines: a line wider than the terminal (a narrow one) takes several.
        // Written apart from the lines, which may go through the pager.
        let shownRows = terminal.rows(shownLines)
        if terminal.isTTY, !shownLines.isEmpty, shownRows < terminal.height ?? Int.max {
            output.write("\u{1B}[\(shownRows)A\r\u{1B}[J")
        }
        output.write(lines.map { $0 + "\n" }.joined())
        shownLines = lines
    }
}
