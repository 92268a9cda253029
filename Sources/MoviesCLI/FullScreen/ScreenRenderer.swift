/// Draws frames on the terminal, writing only the rows that changed since the last frame, in one
/// write wrapped in a synchronized update (mode 2026: terminals that know it show the frame at
/// once, the others ignore it), so nothing flickers and a frame costs what changed.
final class ScreenRenderer {
    /// Ends every frame the renderer writes (the end of the synchronized update).
    static let frameEnd = "\u{1B}[?2026l"

    private let write: (String) -> Void
    private var shown: ScreenFrame?

    /// Creates a renderer that writes with `write` (the terminal's output, in one call per frame).
    init(write: @escaping (String) -> Void) {
        self.write = write
    }

    /// Forgets what the screen shows, so the next frame is drawn whole (after a resize, a
    /// suspension, Ctrl-L, or anything else that may have changed the screen behind our back).
    func invalidate() {
        shown = nil
    }

    /// Shows `frame`: whole the first time and whenever its image changes, else the rows that differ.
    func draw(_ frame: ScreenFrame) {
        guard frame != shown else { return }
        var text = "\u{1B}[?2026h\u{1B}[?25l"
        let whole = shown == nil || shown?.image != frame.image || shown?.rows.count != frame.rows.count
        if whole {
            if let graphics = shown?.image?.graphics { text += InlineImage.clear(graphics) }
            text += "\u{1B}[0m\u{1B}[H\u{1B}[2J"
        }
        for (index, row) in frame.rows.enumerated() {
            if !whole, let shown, index < shown.rows.count, shown.rows[index] == row { continue }
            // Erased first, then written: with autowrap off the cursor stays on the last column
            // after a full row, where an erase after the text would take its last character.
            text += "\u{1B}[\(index + 1);\(frame.textColumn(of: index) + 1)H\u{1B}[0m\u{1B}[K" + row + "\u{1B}[0m"
        }
        if whole, let image = frame.image {
            text += "\u{1B}[\(image.row + 1);1H"
                + InlineImage.escape(base64: image.base64, columns: image.columns, rows: image.rows, graphics: image.graphics)
        }
        if let cursor = frame.cursor {
            text += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H\u{1B}[?25h"
        }
        write(text + Self.frameEnd)
        shown = frame
    }
}
