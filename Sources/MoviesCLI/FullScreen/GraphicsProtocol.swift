/// A way to draw an image in the terminal's cells, learnt by asking the terminal (`GraphicsProbe`).
enum GraphicsProtocol: String, Sendable, Hashable {
    /// kitty's graphics protocol (kitty, WezTerm, Konsole, Ghostty): PNG only.
    /// https://sw.kovidgoyal.net/kitty/graphics-protocol/
    case kitty
    /// iTerm2's inline images (iTerm2, WezTerm): any format the terminal decodes.
    /// https://iterm2.com/documentation-images.html
    case iterm2

    /// Whether the protocol can show an image of `mimeType`.
    func shows(_ mimeType: String) -> Bool {
        switch self {
        case .kitty: mimeType == "image/png"
        case .iterm2: mimeType.hasPrefix("image/")
        }
    }
}
