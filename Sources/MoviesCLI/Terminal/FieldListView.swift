/// Renders labelled values ("Label: value") with aligned labels. On a terminal a value too long
/// for the width wraps under itself (never cut); piped, each value is whole on one line.
enum FieldListView {
    /// The lines for `fields` on a terminal with `terminal`'s capabilities.
    static func lines(_ fields: [DetailField], terminal: TerminalCapabilities) -> [String] {
        let labelWidth = (fields.map { DisplayWidth.of($0.label) }.max() ?? 0) + 1
        return fields.flatMap { field in
            let label = ANSIStyle.dim.apply(TextFitting.fit(field.label + ":", to: labelWidth), enabled: terminal.usesColor)
            let value = terminal.column(field.value, at: labelWidth + 1)
            return [label + " " + (value.first ?? "")] + value.dropFirst()
        }
    }
}
