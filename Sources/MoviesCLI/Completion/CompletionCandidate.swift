/// One completion: the word, and a short description zsh and fish show beside it.
struct CompletionCandidate: Sendable, Hashable {
    /// The word as it is inserted.
    let word: String
    /// One short line, or "".
    let description: String

    /// Creates a candidate; `description` is cut at the end of its first sentence.
    init(_ word: String, description: String = "") {
        self.word = word
        let sentence = Self.firstSentence(of: description)
        self.description = sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }

    /// Abbreviations whose period ends no sentence ("e.g. 30d").
    static let abbreviations = ["e.g.", "i.e.", "etc.", "cf.", "vs."]

    /// `text` up to the first ". " that ends a sentence: not one of an abbreviation, nor one
    /// followed by a lower-case letter or a digit.
    static func firstSentence(of text: String) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        for (index, word) in words.enumerated() where word.hasSuffix(".") && index + 1 < words.count {
            let next = words[index + 1].first
            let abbreviation = abbreviations.contains(String(word).lowercased().trimmingOpeningPunctuation)
            if !abbreviation, !(next?.isLowercase ?? false), !(next?.isNumber ?? false) {
                return words[...index].joined(separator: " ")
            }
        }
        return text
    }

    /// The output line: the word, a tab and the description when there is one (tabs and line
    /// breaks in either become spaces).
    var line: String {
        let clean = { (text: String) in String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }) }
        return description.isEmpty ? clean(word) : clean(word) + "\t" + clean(description)
    }
}

extension String {
    /// Without the brackets and quotes that may open a word ("(e.g.").
    fileprivate var trimmingOpeningPunctuation: String {
        String(drop { $0 == "(" || $0 == "[" || $0 == "\"" || $0 == "'" })
    }
}
