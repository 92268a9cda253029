/// The escape sequences that draw an image in a box of cells at the cursor, for each protocol.
enum InlineImage {
    /// kitty sends at most this many base64 characters per escape sequence.
    static let kittyChunk = 4096

    /// The sequence that draws `base64` (the image file's bytes, base64) in `columns` × `rows` cells
    /// with `graphics`, leaving the cursor where it was.
    static func escape(base64: String, columns: Int, rows: Int, graphics: GraphicsProtocol) -> String {
        switch graphics {
        case .kitty:
            // a=T transmit and show, f=100 PNG, c/r the box in cells, C=1 do not move the cursor,
            // q=2 no answers (they would arrive as input); m=1 on every chunk but the last.
            let bytes = Array(base64.utf8)
            var text = ""
            var start = 0
            repeat {
                let end = min(start + kittyChunk, bytes.count)
                let more = end < bytes.count ? 1 : 0
                let controls = start == 0 ? "a=T,f=100,c=\(columns),r=\(rows),C=1,q=2,m=\(more)" : "m=\(more)"
                text += "\u{1B}_G\(controls);" + String(decoding: bytes[start..<end], as: UTF8.self) + "\u{1B}\\"
                start = end
            } while start < bytes.count
            return text
        case .iterm2:
            let size = base64.utf8.count / 4 * 3
            return "\u{1B}]1337;File=inline=1;size=\(size);width=\(columns);height=\(rows);preserveAspectRatio=1:\(base64)\u{07}"
        }
    }

    /// The sequence that removes every image drawn with `graphics` (kitty keeps images apart from
    /// text; iTerm2's are cells that text overwrites).
    static func clear(_ graphics: GraphicsProtocol) -> String {
        graphics == .kitty ? "\u{1B}_Ga=d,d=A,q=2\u{1B}\\" : ""
    }
}
