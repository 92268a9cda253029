/// Removes credentials from text that may end up in a log line or an error message.
public enum Redaction {
    /// The text put in place of a secret.
    public static let placeholder = "<redacted>"

    /// `text` with every `api_key=` and `session_id=` value (TMDB's user session) and every `Bearer`
    /// token replaced by `<redacted>`.
    public static func redactingCredentials(in text: String) -> String {
        var result = text.replacing(/(?i)((?:api_key|session_id|request_token)=)[^&\s#"'<>]*/) { match in
            "\(match.output.1)\(placeholder)"
        }
        result = result.replacing(/(?i)(bearer\s+)[^\s"',;<>]+/) { match in
            "\(match.output.1)\(placeholder)"
        }
        return result
    }

    /// `text` with every whole occurrence of `secret` replaced by `replacement`: one not glued to
    /// letters, digits, `-` or `_` on either side. A token `tok` is removed from "Bearer tok" and
    /// "tok." but leaves "token" alone (substring replacement made it "[redacted]en").
    public static func replacingWholeOccurrences(of secret: String, in text: String, with replacement: String) -> String {
        guard !secret.isEmpty, text.contains(secret) else { return text }
        var result = ""
        var rest = text[...]
        while let range = rest.range(of: secret) {
            let before = range.lowerBound > rest.startIndex ? rest[rest.index(before: range.lowerBound)] : (result.last ?? " ")
            let after = range.upperBound < rest.endIndex ? rest[range.upperBound] : " "
            result += rest[..<range.lowerBound]
            if isTokenCharacter(before) || isTokenCharacter(after) {
                result += rest[range]
            } else {
                result += replacement
            }
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    private static func isTokenCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "-" || character == "_"
    }
}
