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
}
