/// A search query as the user typed it, with its canonical form for cache keys and de-duplication.
///
/// Canonical form: trimmed, inner whitespace collapsed to one space, Unicode NFC, case-folded
/// (full case folding approximated by upper- then lower-casing, so `Straße` and `STRASSE` match).
public struct MovieQuery: Sendable, Hashable, Codable {
    /// The query as given (trimmed and whitespace-collapsed, case kept), for display.
    public let query: String

    /// The canonical form used in cache keys and to compare queries (computed once: hashing and
    /// comparing queries is on the hot path of every cached search).
    public let canonical: String

    /// Creates a query; returns `nil` when it is empty after trimming.
    public init?(_ raw: String) {
        if MovieQuery.isCanonicalASCII(raw) {
            // Already canonical (the common case, and on the hot path of every cached search).
            self.init(query: raw, canonical: raw)
            return
        }
        let collapsed = MovieQuery.collapseWhitespace(raw)
        guard !collapsed.isEmpty else { return nil }
        self.init(query: collapsed)
    }

    private init(query: String, canonical: String) {
        self.query = query
        self.canonical = canonical
    }

    private init(query: String) {
        self.query = query
        // `_nfcCodeUnits` is the standard library's NFC normalizer (public, underscored);
        // FoundationEssentials has no `precomposedStringWithCanonicalMapping`.
        let nfc = String(decoding: query._nfcCodeUnits, as: UTF8.self)
        canonical = nfc.uppercased().lowercased()
    }

    /// Only `query` is encoded; `canonical` is derived from it.
    private enum CodingKeys: String, CodingKey {
        case query
    }

    /// Decodes `{"query": ...}` (the query kept as stored) and derives its canonical form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(query: try container.decode(String.self, forKey: .query))
    }

    /// Queries are equal when their canonical forms are.
    public static func == (lhs: MovieQuery, rhs: MovieQuery) -> Bool { lhs.canonical == rhs.canonical }

    public func hash(into hasher: inout Hasher) { hasher.combine(canonical) }

    /// Whether `text` is its own canonical form, told from its bytes alone: printable ASCII
    /// without capitals, words separated by single spaces, nothing leading or trailing.
    static func isCanonicalASCII(_ text: String) -> Bool {
        var afterSpace = true
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "):
                if afterSpace { return false }
                afterSpace = true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                return false
            case 0x21...0x7E:
                afterSpace = false
            default:
                return false
            }
        }
        return !afterSpace
    }

    static func collapseWhitespace(_ raw: String) -> String {
        raw.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
