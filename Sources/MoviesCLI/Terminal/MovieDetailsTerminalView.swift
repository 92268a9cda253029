/// Renders a `MovieDetailsViewModel`: title, tagline, facts, freshness, the overview and labelled
/// fields. On a terminal every line wraps to its width (nothing is cut); piped, each is one line.
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
            lines += terminal.wrapped(overview)
        }
        lines.append("")
        lines += FieldListView.lines(viewModel.fields, terminal: terminal)
        return lines
    }
}
