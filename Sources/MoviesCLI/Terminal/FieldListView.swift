/// Renders labelled values ("Label: value") with aligned labels. On a terminal a value too long
/// for the width wraps under itself (never cut); piped, each value is whole on one line.
enum FieldListView {
    /// The lines for `fields` on a terminal with `terminal`'s capabilities. `wholeURLs`: an
    /// address too wide for its column goes whole on the next line, never broken (line output;
    /// not a full screen, whose rows must fit).
    static func lines(_ fields: [DetailField], terminal: TerminalCapabilities, wholeURLs: Bool = false) -> [String] {
        let labelWidth = (fields.map { DisplayWidth.of($0.label) }.max() ?? 0) + 1
        return fields.flatMap { field in
            let value = terminal.column(field.value, at: labelWidth + 1, wholeURLs: wholeURLs)
            let first = value.first ?? ""
            // A label with nothing after it (its value on the next line) is not padded.
            let name = first.isEmpty ? field.label + ":" : TextFitting.fit(field.label + ":", to: labelWidth)
            let label = ANSIStyle.dim.apply(name, enabled: terminal.usesColor)
            return [first.isEmpty ? label : label + " " + first] + value.dropFirst()
        }
    }
}
