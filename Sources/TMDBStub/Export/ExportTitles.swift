import Foundation

/// Made-up titles for the synthetic export: realistic lengths (one to seven words, most two to
/// four), Zipf-distributed words from a vocabulary of tens of thousands (common English words
/// first), and other scripts: Latin with diacritics, CJK, Cyrillic, Arabic, Greek, Hangul.
enum ExportTitles {
    static let common = [
        "The", "of", "the", "A", "and", "in", "Love", "Man", "Night", "Life", "Day", "Last", "Story", "World",
        "Girl", "Dead", "Time", "House", "Black", "Blood", "King", "Dark", "Little", "Home", "Red", "City",
        "Boy", "Christmas", "Lost", "War", "Death", "Star", "Secret", "Return", "Big", "New", "Woman", "Summer",
    ]

    static let syllables = [
        "ka", "ro", "mi", "ten", "shar", "vel", "dor", "lin", "bra", "quo", "sel", "mar", "tis", "an", "gor",
        "ul", "fen", "ria", "zo", "pel", "cas", "dri", "mon", "tha", "ve", "nor", "sky", "lo", "ber", "win",
    ]

    /// The word of rank `rank` (0 the commonest) of the made-up vocabulary.
    static func word(rank: Int) -> String {
        if rank < common.count { return common[rank] }
        var value = rank - common.count
        var text = ""
        repeat {
            text += syllables[value % syllables.count]
            value /= syllables.count
        } while value > 0
        if text.count < 4 { text += "ton" }
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// A title drawn with `random` (deterministic per movie).
    static func title(_ random: inout ExportRandom) -> String {
        let script = random.below(1000)
        let words = [1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6, 7][random.below(13)]
        switch script {
        case 0..<700:
            return (0..<words).map { _ in word(rank: zipfRank(&random, vocabulary: 60_000)) }.joined(separator: " ")
                + (random.below(1000) == 0 ? " \"Redux\"" : "")
        case 700..<800:
            let list = CatalogueWords.latinWithDiacritics[random.below(CatalogueWords.latinWithDiacritics.count)].words
            return (0..<words).map { _ in random.below(3) == 0 ? word(rank: zipfRank(&random, vocabulary: 60_000)) : list[random.below(list.count)] }
                .joined(separator: " ")
        default:
            let scripts = CatalogueWords.otherScripts
            let pick = scripts[[0, 0, 0, 2, 2, 3, 4, 4, 5, 5, 5, 1, 6][random.below(13)]]
            return (0..<max(1, words - 1)).map { _ in pick.words[random.below(pick.words.count)] }.joined(separator: pick.separator)
        }
    }

    /// A rank in 0..<vocabulary, Zipf-like (rank r drawn with weight about 1/(r+1)).
    static func zipfRank(_ random: inout ExportRandom, vocabulary: Int) -> Int {
        // Inverse of the continuous 1/x distribution: exp(u·ln V) − 1.
        let u = random.unit()
        return min(vocabulary - 1, Int(exp(u * log(Double(vocabulary))) - 1))
    }
}
