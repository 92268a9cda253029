/// Renders the browse state as a frame: the screen shown, fitted to the terminal's size, with the
/// keys (or the last message) on the bottom row. Pure: the same state gives the same frame.
enum BrowseScreenView {
    /// The frame for `state`; styles (bold, reverse, colours) only when `usesColor` (NO_COLOR).
    static func frame(_ state: BrowseState, usesColor: Bool) -> ScreenFrame {
        let width = max(state.width, 1)
        let height = max(state.height, 1)
        var frame: ScreenFrame
        switch state.screen {
        case .list: frame = BrowseListView.frame(state, usesColor: usesColor)
        case .details: frame = BrowseDetailsView.frame(state, usesColor: usesColor)
        case .help: frame = ScreenFrame(rows: BrowseHelpView.lines(width: width))
        }
        var rows = Array(frame.rows.prefix(height - 1))
        rows += Array(repeating: "", count: max(0, height - 1 - rows.count))
        rows.append(bottomRow(state, width: width, usesColor: usesColor))
        frame.rows = Array(rows.suffix(height))
        if let image = frame.image, image.row + image.rows > height - 1 { frame.image = nil }
        if let cursor = frame.cursor, cursor.row >= height { frame.cursor = nil }
        return frame
    }

    /// The keys of the screen shown, or the message that stands in for them until the next key.
    static func bottomRow(_ state: BrowseState, width: Int, usesColor: Bool) -> String {
        if let message = state.message {
            return ANSIStyle.yellow.apply(TextFitting.truncate(message, to: width), enabled: usesColor)
        }
        let keys: String
        switch state.screen {
        case .help: keys = "any key: back"
        case .details: keys = "j/k scroll · w watchlist · a TMDB watchlist · f favourite · A/F undo · o open · y copy link · Esc back · ? help"
        case .list where state.mode == .query: keys = "↑↓ PgUp PgDn move · Enter open · Esc list keys (j k g G q) · F1 help · Ctrl-C quit"
        case .list: keys = "j/k move · g/G first/last · Enter open · / type · w a f add · o y link · r refresh · ? help · q quit"
        }
        return ANSIStyle.dim.apply(TextFitting.truncate(keys, to: width), enabled: usesColor)
    }
}
