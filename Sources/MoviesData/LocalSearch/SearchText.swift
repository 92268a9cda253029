import Foundation

/// The form of text the local search index holds and is searched with: accents and other
/// diacritics removed, case and width folded, so "Εισπράκτωρ", "AMÉLIE" and "ＡＢＣ" are found as
/// "εισπρακτωρ", "amelie" and "abc". SQLite's `unicode61` folds only Latin diacritics; this covers
/// every script. ASCII text is kept as it is (the index folds its case itself).
public enum SearchText {
    /// `text` folded for the index.
    public static func folded(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        return text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
    }

    /// Whether `text` has characters of a script written without spaces between words (CJK,
    /// kana, Hangul, Thai, Lao, Myanmar, Khmer): there a word index sees whole phrases, and a
    /// query of one or two characters can only be matched as a substring.
    public static func hasUnspacedScript(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x2E80...0xD7FF, 0xF900...0xFAFF, 0x20000...0x3FFFF: true
            default: false
            }
        }
    }
}
