/// Fits text to a number of terminal columns: truncation with "…" and padding, measured with `DisplayWidth`.
enum TextFitting {
    /// `text` cut to at most `width` columns, ending in "…" when something was cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        let text = printable(text)
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

    /// `text` with control characters (C0, DEL, C1: escape sequences, line breaks) replaced by spaces,
    /// so text from TMDB can never move the cursor or change colours.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isControl(scalar) ? " " : scalar) }
        return String(scalars)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
