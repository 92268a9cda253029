/// Formats a vote average without Foundation's number formatters.
enum RatingFormat {
    /// `7.25` → "7.3", `8` → "8.0".
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((max(value, 0) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
