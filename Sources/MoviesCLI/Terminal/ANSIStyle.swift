/// ANSI SGR styles (ECMA-48), applied only when colour is enabled.
enum ANSIStyle: String, Sendable {
    case bold = "1"
    case dim = "2"
    case yellow = "33"
    case red = "31"
    case cyan = "36"
    case reverse = "7"

    /// `text` wrapped in this style's escape sequences when `enabled`, else `text` unchanged.
    func apply(_ text: String, enabled: Bool) -> String {
        guard enabled, !text.isEmpty else { return text }
        return "\u{1B}[\(rawValue)m\(text)\u{1B}[0m"
    }
}
