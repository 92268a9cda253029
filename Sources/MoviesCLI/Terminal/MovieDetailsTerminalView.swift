/// Renders a `MovieDetailsViewModel`: title, tagline, facts, freshness, the overview and labelled
/// fields. On a terminal every line wraps to its width (nothing is cut), but an address (homepage,
/// IMDb, poster, TMDB page) is never broken: wider than the terminal, it stands whole on its own
/// line. Piped, each is one line.
enum MovieDetailsTerminalView {
    /// The lines that show `viewModel`.
    static func lines(for viewModel: MovieDetailsViewModel, terminal: TerminalCapabilities) -> [String] {
        guard viewModel.hasDetails else { return [] }
        let color = terminal.usesColor
        var lines = terminal.wrapped(viewModel.title).map { ANSIStyle.bold.apply($0, enabled: color) }
        if let tagline = viewModel.tagline { lines += terminal.wrapped(tagline) }
        if !viewModel.factsLine.isEmpty { lines += terminal.wrapped(viewModel.factsLine) }
        if let freshness = viewModel.freshnessLine {
            lines += terminal.wrapped(freshness).map { ANSIStyle.dim.apply($0, enabled: color) }
        }
        if let overview = viewModel.overview {
            lines.append("")
            lines += terminal.wrapped(overview, wholeURLs: true)
        }
        lines.append("")
        lines += FieldListView.lines(viewModel.fields, terminal: terminal, wholeURLs: true)
        return lines
    }
}
