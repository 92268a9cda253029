/// Formats a vote average without Foundation's number formatters.
enum RatingFormat {
    /// What a film nobody has voted on shows instead of a rating.
    static let noVotes = "–"

    /// `7.25` → "7.3", `8` → "8.0".
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((max(value, 0) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// A film's average vote with one decimal, or "–" when it has none: TMDB reports an average of
    /// 0 for a film with no votes (votes run from 0.5 to 10, so a real average is never 0).
    static func average(_ value: Double?, votes: Int? = nil) -> String {
        guard let value, value > 0, votes.map({ $0 > 0 }) ?? true else { return noVotes }
        return oneDecimal(value)
    }
}
