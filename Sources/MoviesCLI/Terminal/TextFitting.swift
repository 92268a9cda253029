/// Fits text to a number of terminal columns: truncation with "…" and padding, measured with `DisplayWidth`.
enum TextFitting {
    /// `text` cut to at most `width` columns, ending in "…" when something was cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard DisplayWidth.of(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let columns = DisplayWidth.of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }

    /// `text` truncated to `width` columns, then padded with spaces on the right (or the left when
    /// `alignRight`) to exactly `width` columns.
    static func fit(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let cut = truncate(text, to: width)
        let padding = String(repeating: " ", count: max(0, width - DisplayWidth.of(cut)))
        return alignRight ? padding + cut : cut + padding
    }
}
