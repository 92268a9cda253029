/// The details screen: title, facts (year, runtime, genres, rating with votes), freshness, then
/// the poster at the left (when the terminal draws images and it came) beside the tagline,
/// overview and fields, which scroll.
enum BrowseDetailsView {
    /// The first row of the scrolling body (and of the poster).
    static let bodyRow = 4

    /// The frame, without its bottom row.
    static func frame(_ state: BrowseState, usesColor: Bool) -> ScreenFrame {
        guard let details = state.details else { return ScreenFrame(rows: []) }
        let width = max(state.width, 1)
        let title = details.summary?.title ?? details.title
        var rows = [ANSIStyle.bold.apply(TextFitting.truncate(title + (details.isLoading ? "  (loading…)" : ""), to: width), enabled: usesColor)]
        rows.append(TextFitting.truncate(details.summary?.factsLine ?? "", to: width))
        if let error = details.error {
            rows.append(ANSIStyle.red.apply(TextFitting.truncate(error.message, to: width), enabled: usesColor))
        } else {
            rows.append(ANSIStyle.dim.apply(TextFitting.truncate(details.freshnessLine ?? "", to: width), enabled: usesColor))
        }
        var posterNote = ""
        if case .unavailable(let reason) = details.poster { posterNote = reason }
        rows.append(ANSIStyle.dim.apply(TextFitting.truncate(posterNote, to: width), enabled: usesColor))

        let image = posterImage(details, state: state)
        let textColumn = image.map { $0.columns + 1 } ?? 0
        let textWidth = max(10, width - textColumn)
        let body = bodyLines(details, width: textWidth, usesColor: usesColor)
        let room = max(0, state.height - 1 - bodyRow)
        let scroll = min(details.scroll, max(0, body.count - room))
        // The body is wrapped to the text column's width already (and may carry styles).
        rows += body.dropFirst(scroll).prefix(room)
        return ScreenFrame(rows: rows, image: image)
    }

    private static func bodyLines(_ details: MovieDetailsState, width: Int, usesColor: Bool) -> [String] {
        guard let summary = details.summary else { return [] }
        let terminal = TerminalCapabilities(isTTY: true, width: width, usesColor: usesColor)
        var lines: [String] = []
        if let tagline = summary.tagline { lines += terminal.wrapped(tagline).map { ANSIStyle.dim.apply($0, enabled: usesColor) } + [""] }
        if let overview = summary.overview { lines += terminal.wrapped(overview) + [""] }
        lines += FieldListView.lines(summary.fields, terminal: terminal)
        return lines
    }

    /// The poster's place, when it came, the terminal draws it and the screen has room for it
    /// beside a readable column of text.
    private static func posterImage(_ details: MovieDetailsState, state: BrowseState) -> ScreenImage? {
        guard case .loaded(let base64, let mimeType) = details.poster, let graphics = state.graphics, graphics.shows(mimeType),
              state.width >= BrowseModel.posterColumns + 30, state.height >= bodyRow + BrowseModel.posterRows + 1 else { return nil }
        return ScreenImage(
            id: "\(details.requestID):\(details.summary?.posterPath ?? "")", row: bodyRow,
            columns: BrowseModel.posterColumns, rows: BrowseModel.posterRows, base64: base64, graphics: graphics)
    }
}
