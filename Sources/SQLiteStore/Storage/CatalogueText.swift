#if canImport(Glibc)
import Glibc
#endif

/// How catalogue titles are written into, and searched in, `catalogue_text` (FTS5, unicode61):
/// one rule for both sides.
///
/// unicode61 keeps a run of CJK characters as one word, so `千尋` would never find
/// `千と千尋の神隠し`; each CJK character is written as a word of its own, and a query's CJK
/// characters are searched as a phrase of such words. Rows are numbered by popularity bucket, so
/// reading matches in row order reads them most popular first.
enum CatalogueText {
    /// The title as written into the index.
    static func indexed(_ title: String) -> String {
        guard title.unicodeScalars.contains(where: isSpaceless) else { return title }
        var text = String.UnicodeScalarView()
        for scalar in title.unicodeScalars {
            if isSpaceless(scalar) {
                text.append(" ")
                text.append(scalar)
                text.append(" ")
            } else {
                text.append(scalar)
            }
        }
        return String(text)
    }

    /// The FTS5 expression for what a person typed: every word required, the last one also as
    /// a prefix when it has 2 or more characters; `nil` when nothing searchable remains.
    static func matchExpression(_ typed: String) -> String? {
        let words = typed.split(whereSeparator: { $0.isWhitespace }).filter { word in
            word.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
        }
        guard !words.isEmpty else { return nil }
        var parts: [String] = []
        for (offset, word) in words.enumerated() {
            let quoted = "\"" + indexed(String(word)).replacing("\"", with: "\"\"") + "\""
            let isLast = offset == words.count - 1
            parts.append(isLast && word.count >= 2 ? quoted + "*" : quoted)
        }
        return parts.joined(separator: " ")
    }

    /// The row of a title in `catalogue_text`: its popularity bucket (most popular first) above
    /// its id, so rows in order are titles most popular first, at the bucket's grain.
    static func rowid(id: Int, popularity: Double) -> Int64 {
        Int64(bucket(popularity)) << 32 | Int64(id & 0xFFFF_FFFF)
    }

    /// The id in a `catalogue_text` row.
    static func id(ofRow rowid: Int64) -> Int { Int(rowid & 0xFFFF_FFFF) }

    /// The bucket in a `catalogue_text` row.
    static func bucket(ofRow rowid: Int64) -> Int { Int(rowid >> 32) }

    /// How many buckets a title's row may be away from its popularity's before an import moves
    /// it: popularity wobbles from day to day, and moving a row is a delete and an insert in the
    /// text index; within this (a popularity within 19 % to 41 % of the row's bucket), the import
    /// only updates the popularity column. A search reads 2 × this many buckets more than the
    /// results' (`SQLiteCatalogue.search`).
    static let tolerance = 1

    /// 0 for the most popular; 4 buckets for each doubling of popularity (each within 19 %), from
    /// 0.001 (TMDB's exports start at 0.6) to about 10⁶.
    static func bucket(_ popularity: Double) -> Int {
        let clamped = max(0.001, min(popularity.isFinite ? popularity : 0, 1_000_000))
        let steps = Int((log2(clamped / 0.001) * 4).rounded(.down))
        return max(0, 255 - min(255, steps))
    }

    /// Scripts written without spaces between words: Han, kana, Hangul syllables.
    private static func isSpaceless(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xAC00...0xD7AF, 0x20000...0x2FFFF: true
        default: false
        }
    }
}
