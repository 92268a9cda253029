/// The list screen: the search bar, the status line (how many, how fresh, in the CLI's words),
/// then the results, or the recent queries while the query is empty.
enum BrowseListView {
    /// The search bar's label.
    static let prompt = "Search: "

    /// The frame, without its bottom row.
    static func frame(_ state: BrowseState, usesColor: Bool) -> ScreenFrame {
        let width = max(state.width, 1)
        var rows = [searchBar(state, width: width, usesColor: usesColor), statusLine(state, width: width, usesColor: usesColor)]
        let visible = state.scrollTop..<min(state.listCount, state.scrollTop + state.listHeight)
        for index in visible {
            let selected = index == state.selection
            let text = state.showsRecentQueries
                ? recentRow(state.recentQueries[index], selected: selected, width: width)
                : resultRow(state.results?.items[index], selected: selected, width: width)
            rows.append(selected ? ANSIStyle.reverse.apply(text, enabled: usesColor) : text)
        }
        let shown = shownQuery(state, width: width)
        let cursorColumn = DisplayWidth.of(prompt) + shown.cursorColumn
        let cursor = state.mode == .query && cursorColumn < width ? (row: 0, column: cursorColumn) : nil
        return ScreenFrame(rows: rows, cursor: cursor)
    }

    private static func searchBar(_ state: BrowseState, width: Int, usesColor: Bool) -> String {
        let mode = state.mode == .query ? "" : "  [list keys: / to type]"
        let room = max(0, width - DisplayWidth.of(prompt) - DisplayWidth.of(mode))
        let text = state.mode == .query ? shownQuery(state, width: width).text : TextFitting.printable(state.query)
        return ANSIStyle.bold.apply(prompt, enabled: usesColor) + TextFitting.truncate(text, to: room)
            + ANSIStyle.dim.apply(mode, enabled: usesColor)
    }

    /// The part of the query the search bar shows and the cursor's column in it: all of it when it
    /// fits, else as much as fits with the cursor in view (the start dropped while the cursor is
    /// near the end, as a shell's line scrolls).
    static func shownQuery(_ state: BrowseState, width: Int) -> (text: String, cursorColumn: Int) {
        let room = max(1, width - DisplayWidth.of(prompt))
        let before = TextFitting.printable(String(state.line.beforeCursor))
        let after = TextFitting.printable(String(state.line.text.dropFirst(state.line.cursor)))
        let beforeWidth = DisplayWidth.of(before)
        guard beforeWidth + DisplayWidth.of(after) >= room else { return (before + after, beforeWidth) }
        // Keep the cursor's cell on the bar: drop characters from the start until it fits.
        var head = Substring(before)
        var headWidth = beforeWidth
        while headWidth >= room, let first = head.first {
            head = head.dropFirst()
            headWidth -= DisplayWidth.of(first)
        }
        return (String(head) + after, headWidth)
    }

    /// The second row: what the list is and how fresh.
    static func statusLine(_ state: BrowseState, width: Int, usesColor: Bool) -> String {
        let (text, style) = status(state)
        return style.apply(TextFitting.truncate(text, to: width), enabled: usesColor)
    }

    private static func status(_ state: BrowseState) -> (String, ANSIStyle) {
        if state.showsRecentQueries {
            if let error = state.recentQueriesError { return (error.message, .red) }
            return state.recentQueries.isEmpty
                ? ("Type to search movies; your recent searches will be listed here.", .dim)
                : ("Recent searches — Enter searches again", .dim)
        }
        let quoted = "\"\(TextFitting.printable(state.query.trimmed))\""
        if let error = state.searchError { return ("\(quoted): \(error.message)", .red) }
        guard let results = state.currentResults else { return ("\(quoted): searching…", .dim) }
        let asking = state.searchID != nil || state.searchDueAt != nil
        if results.items.isEmpty, results.freshness == nil {
            // The local index matches one letter only as a whole word ("a"), the start of a word
            // from two letters on: saying "no matches" would be untrue of "b" with "bl" finding many.
            // (Scripts written without spaces, from U+0E00 on, are matched inside titles instead:
            // `SearchText.hasUnspacedScript`.)
            let query = state.query.trimmed
            let nothing = query.count == 1 && query.first?.isLetter == true && (query.unicodeScalars.first?.value ?? 0) < 0x0E00
                ? "no cached movie has the word \(quoted) (cached movies match the start of a word from 2 letters)"
                : "no matches among cached movies"
            return ("\(quoted): " + nothing + (asking ? " · asking TMDB…" : ""), .dim)
        }
        if results.items.isEmpty { return ("\(quoted): no movies found" + (results.freshnessLine.map { " — \($0)" } ?? ""), .dim) }
        // What is loading comes before the freshness, which the width may cut.
        let loading = state.pageLoad.map { " · loading page \($0.page)…" } ?? ""
        var text = quoted + ": "
        if results.source == .search {
            let count = results.totalResults == 1 ? "1 result" : "\(results.totalResults) results"
            text += "\(count), \(results.items.count) shown" + loading
            if let line = results.freshnessLine { text += " — " + line }
        } else {
            text += (results.freshnessLine ?? "") + loading
            if asking { text += " · asking TMDB…" }
        }
        let degraded = results.failure != nil || (results.freshnessLine.map(FreshnessLine.isDegraded) ?? false) && results.source == .search
        return (text, degraded ? .yellow : .dim)
    }

    private static func recentRow(_ query: String, selected: Bool, width: Int) -> String {
        TextFitting.fit((selected ? "▶ " : "  ") + TextFitting.printable(query), to: width)
    }

    /// "▶ Title …  1999  8.2": the title takes what the year and rating leave.
    private static func resultRow(_ item: MoviesListItemViewModel?, selected: Bool, width: Int) -> String {
        guard let item else { return "" }
        let marker = selected ? "▶ " : "  "
        let titleWidth = max(1, width - 2 - 1 - 4 - 2 - 4)
        let text = marker + TextFitting.fit(item.displayTitle, to: titleWidth) + " " + TextFitting.fit(item.year, to: 4)
            + "  " + TextFitting.fit(item.rating, to: 4, alignRight: true)
        return TextFitting.truncate(text, to: width)
    }
}
