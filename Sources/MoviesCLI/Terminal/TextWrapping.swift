/// Wraps text into lines of at most a given number of terminal columns, at spaces where possible.
enum TextWrapping {
    /// The lines of `text` wrapped to `width` columns. A word wider than a line (a path, an
    /// address) is broken after a `/` where one fits, so each line holds whole parts of it
    /// (`/run/user/1000/moviesd/` then `io.moviesd.Movies`), else between characters. With
    /// `wholeURLs`, an address (`https://…`) wider than a line is never broken: it stands whole
    /// on a line of its own, wider than `width` (a broken address cannot be copied or clicked).
    static func wrap(_ text: String, width: Int, wholeURLs: Bool = false) -> [String] {
        let width = max(width, 1)
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in TextFitting.printable(text).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            var word = String(word)
            var wordWidth = DisplayWidth.of(word)
            if lineWidth > 0, lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if lineWidth > 0 { lines.append(line) }
            line = ""
            lineWidth = 0
            if wholeURLs, wordWidth > width, isURL(word) {
                lines.append(word)
                continue
            }
            while wordWidth > width {
                var head = ""
                var headWidth = 0
                var rest = word[...]
                while let character = rest.first, headWidth + DisplayWidth.of(character) <= width {
                    head.append(character)
                    headWidth += DisplayWidth.of(character)
                    rest = rest.dropFirst()
                }
                if head.isEmpty, let character = rest.first {  // a character wider than the line
                    head.append(character)
                    rest = rest.dropFirst()
                } else if !rest.isEmpty, let slash = head.dropLast().lastIndex(of: "/"), slash != head.startIndex {
                    // Back to just after the last "/" that fits: a path breaks between its parts.
                    let kept = head.index(after: slash)
                    rest = word[word.index(word.startIndex, offsetBy: head.distance(from: head.startIndex, to: kept))...]
                    head = String(head[..<kept])
                }
                lines.append(head)
                word = String(rest)
                wordWidth = DisplayWidth.of(word)
            }
            line = word
            lineWidth = wordWidth
        }
        if lineWidth > 0 { lines.append(line) }
        return lines
    }

    /// Whether `word` is an address (`scheme://…`), which `wrap` may keep whole.
    static func isURL(_ word: String) -> Bool {
        guard let separator = word.firstRange(of: "://") else { return false }
        let scheme = word[..<separator.lowerBound]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}
