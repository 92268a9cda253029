/// What the server needs to know of a `.varlink` interface definition: its declared methods.
struct InterfaceDescription: Sendable {
    /// The names of the methods declared with `method Name(`.
    let methodNames: Set<String>

    /// Scans `text` for `method Name(` declarations, ignoring `#` comments.
    init(text: String) {
        var names = Set<String>()
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = code.drop(while: { $0 == " " || $0 == "\t" })
            guard trimmed.hasPrefix("method"), let next = trimmed.dropFirst(6).first, next == " " || next == "\t" else {
                continue
            }
            let afterKeyword = trimmed.dropFirst(6).drop(while: { $0 == " " || $0 == "\t" })
            let name = afterKeyword.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" })
            if !name.isEmpty { names.insert(String(name)) }
        }
        methodNames = names
    }
}
