/// One completion: the word, and a short description zsh and fish show beside it.
struct CompletionCandidate: Sendable, Hashable {
    /// The word as it is inserted.
    let word: String
    /// One short line, or "".
    let description: String

    /// Creates a candidate; `description` is cut at its first sentence.
    init(_ word: String, description: String = "") {
        self.word = word
        let sentence = description.split(separator: ". ", maxSplits: 1).first.map(String.init) ?? description
        self.description = sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }

    /// The output line: the word, a tab and the description when there is one (tabs and line
    /// breaks in either become spaces).
    var line: String {
        let clean = { (text: String) in String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }) }
        return description.isEmpty ? clean(word) : clean(word) + "\t" + clean(description)
    }
}
