/// Removes credentials from text that may end up in a log line or an error message.
public enum Redaction {
    /// The text put in place of a secret.
    public static let placeholder = "<redacted>"

    /// `text` with every `api_key=` value and every `Bearer` token replaced by `<redacted>`.
    public static func redactingCredentials(in text: String) -> String {
        var result = text.replacing(/(?i)(api_key=)[^&\s#"'<>]*/) { match in
            "\(match.output.1)\(placeholder)"
        }
        result = result.replacing(/(?i)(bearer\s+)[^\s"',;<>]+/) { match in
            "\(match.output.1)\(placeholder)"
        }
        return result
    }
}
