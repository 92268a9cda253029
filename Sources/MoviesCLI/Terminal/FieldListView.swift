/// Renders labelled values ("Label: value") with aligned labels; values are fitted to the width on a
/// terminal and printed whole when the output is piped.
enum FieldListView {
    /// The lines for `fields` on a terminal with `terminal`'s capabilities.
    static func lines(_ fields: [DetailField], terminal: TerminalCapabilities) -> [String] {
        let labelWidth = (fields.map { DisplayWidth.of($0.label) }.max() ?? 0) + 1
        let valueWidth = max(terminal.width - labelWidth - 1, 10)
        return fields.map { field in
            let label = TextFitting.fit(field.label + ":", to: labelWidth)
            // Piped output is for scripts and pagers: never cut a value there.
            let value = terminal.isTTY ? TextFitting.truncate(field.value, to: valueWidth) : field.value
            return ANSIStyle.dim.apply(label, enabled: terminal.usesColor) + " " + value
        }
    }
}
