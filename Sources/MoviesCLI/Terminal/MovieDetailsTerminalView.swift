/// Renders a `MovieDetailsViewModel`: title, tagline, facts, freshness, the wrapped overview and
/// labelled fields, each line at most the terminal's width.
enum MovieDetailsTerminalView {
    /// The lines that show `viewModel`.
    static func lines(for viewModel: MovieDetailsViewModel, terminal: TerminalCapabilities) -> [String] {
        guard viewModel.hasDetails else { return [] }
        let width = terminal.width
        let color = terminal.usesColor
        var lines = [ANSIStyle.bold.apply(TextFitting.truncate(viewModel.title, to: width), enabled: color)]
        if let tagline = viewModel.tagline { lines += TextWrapping.wrap(tagline, width: width) }
        if !viewModel.factsLine.isEmpty { lines.append(TextFitting.truncate(viewModel.factsLine, to: width)) }
        if let freshness = viewModel.freshnessLine {
            lines.append(ANSIStyle.dim.apply(TextFitting.truncate(freshness, to: width), enabled: color))
        }
        if let overview = viewModel.overview {
            lines.append("")
            lines += TextWrapping.wrap(overview, width: width)
        }
        lines.append("")
        lines += FieldListView.lines(viewModel.fields, terminal: terminal)
        return lines
    }
}
