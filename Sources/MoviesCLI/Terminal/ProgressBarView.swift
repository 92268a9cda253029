/// One line of a progress bar, redrawn in place on a TTY: `[#####-----] 12/40 search "matrix" page 2`.
enum ProgressBarView {
    /// The line for `fraction` (0...1) with the counts and `label`, fitted to `width` columns.
    static func line(fraction: Double, finished: Int, total: Int, label: String, width: Int) -> String {
        let barWidth = max(10, min(30, width / 3))
        let filled = Int((max(0, min(1, fraction)) * Double(barWidth)).rounded(.down))
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled) + "]"
        let text = "\(bar) \(finished)/\(total) \(TextFitting.printable(label))"
        return TextFitting.truncate(text, to: max(1, width - 1))
    }

    /// The escape sequence that returns to the start of the line and clears it.
    static let clearLine = "\r\u{1B}[K"
}
