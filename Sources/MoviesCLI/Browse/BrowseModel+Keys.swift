/// Keys: what each does on each screen and in each mode (the help screen lists them).
extension BrowseModel {
    mutating func handleKey(_ key: Key, now: UInt64) -> [BrowseEffect] {
        state.message = nil
        switch key {
        case .control("c"): return [.quit(.interrupted)]
        case .control("z"): return [.suspend]
        case .control("l"): return [.redraw]
        case .function(1): return showHelp()
        default: break
        }
        switch state.screen {
        case .help(let returnTo):
            state.screen = returnTo == .details ? .details : .list
            return []
        case .details:
            return detailsKey(key)
        case .list:
            return state.mode == .query ? queryKey(key, now: now) : listKey(key, now: now)
        }
    }

    private mutating func showHelp() -> [BrowseEffect] {
        switch state.screen {
        case .help: state.screen = .list
        case .details: state.screen = .help(returnTo: .details)
        case .list: state.screen = .help(returnTo: .list)
        }
        return []
    }

    /// Query mode: text and readline's keys edit the query (`BrowseModel+Editing`); the vertical
    /// movement keys move in the list.
    private mutating func queryKey(_ key: Key, now: UInt64) -> [BrowseEffect] {
        if let edit = editQuery(key, now: now) { return edit }
        switch key {
        case .escape, .tab:
            state.mode = .list
            return []
        case .alt(let character):
            // Alt with a key readline does not use: Escape, then the key (as in vi).
            state.mode = .list
            return listKey(.character(character), now: now)
        case .enter:
            return choose(now: now)
        case .control("n"): return move(by: 1)
        case .control("p"): return move(by: -1)
        case .down: return move(by: 1)
        case .up: return move(by: -1)
        case .pageDown: return move(by: state.listHeight)
        case .pageUp: return move(by: -state.listHeight)
        default: return []
        }
    }

    /// List mode: vi keys and the commands of single letters.
    private mutating func listKey(_ key: Key, now: UInt64) -> [BrowseEffect] {
        if let effects = movement(key) { return effects }
        switch key {
        case .character("j"), .control("n"): return move(by: 1)
        case .character("k"), .control("p"): return move(by: -1)
        case .character("g"): return move(to: 0)
        case .character("G"): return move(to: state.listCount - 1)
        case .control("f"): return move(by: state.listHeight)
        case .control("b"): return move(by: -state.listHeight)
        case .control("d"): return move(by: max(1, state.listHeight / 2))
        case .control("u"): return move(by: -max(1, state.listHeight / 2))
        case .character("/"), .character("i"), .tab:
            state.mode = .query
            return []
        case .enter, .character("l"):
            return choose(now: now)
        case .character("r"):
            guard !state.query.isEmpty else { return [] }
            state.searchDueAt = nil
            return searchNow()
        case .character("?"):
            return showHelp()
        case .character("q"), .escape:
            return [.quit(.success)]
        case .alt:
            // Escape, then the key: Escape quits.
            return [.quit(.success)]
        case .character(let letter):
            guard let id = selectedMovieID else {
                state.message = "Type / to edit the query; ? lists the keys."
                return []
            }
            return movieCommand(letter, movieID: id, title: selectedTitle)
        default:
            return []
        }
    }

    /// The keys that move in the list in list mode (query mode keeps Home and End for the query);
    /// `nil` for other keys.
    private mutating func movement(_ key: Key) -> [BrowseEffect]? {
        switch key {
        case .down: move(by: 1)
        case .up: move(by: -1)
        case .pageDown: move(by: state.listHeight)
        case .pageUp: move(by: -state.listHeight)
        case .home: move(to: 0)
        case .end: move(to: state.listCount - 1)
        default: nil
        }
    }

    /// Details: scrolling, going back, and the list commands.
    private mutating func detailsKey(_ key: Key) -> [BrowseEffect] {
        guard var details = state.details else {
            state.screen = .list
            return []
        }
        switch key {
        case .escape, .backspace, .left, .character("q"), .character("h"):
            state.screen = .list
            return []
        case .down, .character("j"):
            details.scroll += 1
        case .up, .character("k"):
            details.scroll = max(0, details.scroll - 1)
        case .pageDown, .control("f"), .character(" "):
            details.scroll += max(1, state.height / 2)
        case .pageUp, .control("b"):
            details.scroll = max(0, details.scroll - max(1, state.height / 2))
        case .home, .character("g"):
            details.scroll = 0
        case .character("?"):
            return showHelp()
        case .character(let letter):
            return movieCommand(letter, movieID: details.movieID, title: details.summary?.title ?? details.title)
        default:
            return []
        }
        state.details = details
        return []
    }
}
