/// A search query as the user typed it, with its canonical form for cache keys and de-duplication.
///
/// Canonical form: trimmed, inner whitespace collapsed to one space, Unicode NFC, case-folded
/// (full case folding approximated by upper- then lower-casing, so `Straße` and `STRASSE` match).
public struct MovieQuery: Sendable, Hashable, Codable {
    /// The query as given (trimmed and whitespace-collapsed, case kept), for display.
    public let query: String

    /// Creates a query; returns `nil` when it is empty after trimming.
    public init?(_ raw: String) {
        let collapsed = MovieQuery.collapseWhitespace(raw)
        guard !collapsed.isEmpty else { return nil }
        self.query = collapsed
    }

    /// The canonical form used in cache keys and to compare queries.
    public var canonical: String {
        // `_nfcCodeUnits` is the standard library's NFC normalizer (public, underscored);
        // FoundationEssentials has no `precomposedStringWithCanonicalMapping`.
        let nfc = String(decoding: query._nfcCodeUnits, as: UTF8.self)
        return nfc.uppercased().lowercased()
    }

    /// Queries are equal when their canonical forms are.
    public static func == (lhs: MovieQuery, rhs: MovieQuery) -> Bool { lhs.canonical == rhs.canonical }

    public func hash(into hasher: inout Hasher) { hasher.combine(canonical) }

    static func collapseWhitespace(_ raw: String) -> String {
        raw.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
