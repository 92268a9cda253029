/// The mouse, where the terminal reports it (SGR mouse mode): the wheel moves in the list (or
/// scrolls the details), a click selects a row, a double click opens it (as Enter), a click on
/// the search bar types there again.
extension BrowseModel {
    /// Two clicks on the same row at most this far apart are a double click.
    static let doubleClickNanoseconds: UInt64 = 400_000_000
    /// The screen row of the list's first row: below the search bar and the status line.
    static let listTopRow = 2

    mutating func handleMouse(_ mouse: MouseEvent, now: UInt64) -> [BrowseEffect] {
        switch state.screen {
        case .help(let returnTo):
            guard mouse.action == .press else { return [] }
            state.screen = returnTo == .details ? .details : .list
            return []
        case .details:
            guard var details = state.details else { return [] }
            switch mouse.action {
            case .wheelDown: details.scroll += 1
            case .wheelUp: details.scroll = max(0, details.scroll - 1)
            case .press: return []
            }
            state.details = details
            return []
        case .list:
            return listMouse(mouse, now: now)
        }
    }

    private mutating func listMouse(_ mouse: MouseEvent, now: UInt64) -> [BrowseEffect] {
        switch mouse.action {
        case .wheelDown: return move(by: 1)
        case .wheelUp: return move(by: -1)
        case .press: break
        }
        state.message = nil
        if mouse.row == 0 {
            state.mode = .query
            state.lastClick = nil
            return []
        }
        let offset = mouse.row - Self.listTopRow
        let row = state.scrollTop + offset
        guard offset >= 0, offset < state.listHeight, row < state.listCount else { return [] }
        if let last = state.lastClick, last.row == row, now >= last.at, now - last.at <= Self.doubleClickNanoseconds {
            state.lastClick = nil
            state.selection = row
            return choose(now: now)
        }
        state.lastClick = BrowseState.Click(row: row, at: now)
        return move(to: row)
    }
}
