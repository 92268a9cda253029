/// What the server needs to know of a `.varlink` interface definition: its methods and the
/// parameters each one takes, so that a call's parameters are checked against the interface file
/// itself and not against a second list kept beside it.
struct InterfaceDescription: Sendable {
    /// A method's input parameters: each name, and whether it may be absent or `null` (`?type`).
    struct Inputs: Sendable, Equatable {
        /// Parameter name → optional.
        let parameters: [String: Bool]
        /// The names of the required parameters, sorted.
        let required: [String]

        init(parameters: [String: Bool]) {
            self.parameters = parameters
            required = parameters.filter { !$0.value }.keys.sorted()
        }

        /// The first (in name order) parameter of `given` the method does not declare, or the
        /// first required one `given` lacks or sets to `null` (the last of a repeated name
        /// counts): the name an `InvalidParameter` error carries; `nil` when `given` fits.
        func misfit(_ given: [JSONMember]) -> String? {
            var first: String?
            for member in given where parameters[member.name] == nil && first.map({ member.name < $0 }) ?? true {
                first = member.name
            }
            if first != nil { return first }
            return required.first { name in given.last { $0.name == name }?.value.isNull ?? true }
        }
    }

    /// Each declared method's inputs, by method name.
    let methods: [String: Inputs]

    /// The names of the methods declared with `method Name(`.
    let methodNames: Set<String>

    /// Reads the `method Name(parameters) -> (...)` declarations of `text`, ignoring `#` comments.
    init(text: String) {
        let code = Array(InterfaceDescription.withoutComments(text))
        var methods: [String: Inputs] = [:]
        var index = 0
        while let start = InterfaceDescription.nextMethodKeyword(in: code, from: index) {
            index = start + 6
            while index < code.count, code[index].isWhitespace { index += 1 }
            let nameStart = index
            while index < code.count, code[index].isLetter || code[index].isNumber || code[index] == "_" { index += 1 }
            let name = String(code[nameStart..<index])
            while index < code.count, code[index].isWhitespace { index += 1 }
            guard !name.isEmpty, index < code.count, code[index] == "(" else { continue }
            let (inputs, end) = InterfaceDescription.fields(in: code, openingAt: index)
            methods[name] = inputs
            index = end
        }
        self.methods = methods
        methodNames = Set(methods.keys)
    }

    /// `text` with every `#` comment removed, lines kept.
    private static func withoutComments(_ text: String) -> String {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" })
            .map { $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
            .joined(separator: "\n")
    }

    /// Where the next `method` keyword at the start of a line (after blanks) is, from `index`.
    private static func nextMethodKeyword(in code: [Character], from index: Int) -> Int? {
        var position = index
        while position + 6 < code.count {
            let lineStart = position == 0 || code[position - 1] == "\n"
            if lineStart {
                var word = position
                while word < code.count, code[word] == " " || code[word] == "\t" { word += 1 }
                if word + 6 < code.count, String(code[word..<word + 6]) == "method", code[word + 6] == " " || code[word + 6] == "\t" {
                    return word
                }
            }
            position += 1
        }
        return nil
    }

    /// The fields of the parenthesised list opening at `open` (nested types skipped), and the
    /// index after its closing parenthesis.
    private static func fields(in code: [Character], openingAt open: Int) -> (Inputs, Int) {
        var parameters: [String: Bool] = [:]
        var depth = 0
        var field = ""
        var index = open
        func take(_ text: String) {
            let parts = text.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { return }
            let name = parts[0].trimmingBlanks
            guard !name.isEmpty else { return }
            parameters[name] = parts[1].trimmingBlanks.hasPrefix("?")
        }
        while index < code.count {
            let character = code[index]
            index += 1
            if character == "(" {
                depth += 1
                if depth == 1 { continue }
            } else if character == ")" {
                depth -= 1
                if depth == 0 {
                    take(field)
                    break
                }
            } else if character == ",", depth == 1 {
                take(field)
                field = ""
                continue
            }
            field.append(character)
        }
        return (Inputs(parameters: parameters), index)
    }
}

extension Substring {
    /// This text without leading and trailing blanks and line breaks.
    fileprivate var trimmingBlanks: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
