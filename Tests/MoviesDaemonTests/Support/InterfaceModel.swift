import MoviesDaemon
import SystemSupport
import Varlink

/// The `io.moviesd.Movies` interface file read as data, for tests that enumerate it: each method
/// with its parameters and their types, and the named types. Only what calls need is modelled.
struct InterfaceModel: Sendable {
    /// A Varlink type expression.
    indirect enum TypeExpression: Equatable, Sendable, CustomStringConvertible {
        case bool, int, float, string, object
        case optional(TypeExpression)
        case array(TypeExpression)
        case map(TypeExpression)
        case enumeration([String])
        case structure([Field])
        case named(String)

        var description: String {
            switch self {
            case .bool: "bool"
            case .int: "int"
            case .float: "float"
            case .string: "string"
            case .object: "object"
            case .optional(let type): "?\(type)"
            case .array(let type): "[]\(type)"
            case .map(let type): "[string]\(type)"
            case .enumeration(let cases): "(\(cases.joined(separator: ", ")))"
            case .structure(let fields): "(\(fields.map { "\($0.name): \($0.type)" }.joined(separator: ", ")))"
            case .named(let name): name
            }
        }
    }

    /// One field of a structure or a method's parameter list.
    struct Field: Equatable, Sendable {
        let name: String
        let type: TypeExpression
    }

    /// Each method's parameters, in file order.
    let methods: [(name: String, parameters: [Field])]
    /// Each named type's definition.
    let types: [String: TypeExpression]

    /// The interface the daemon serves.
    static let movies = InterfaceModel(MoviesInterface.description)

    /// Reads `text`, a `.varlink` interface description.
    init(_ text: String) {
        let code = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
            .joined(separator: "\n")
        var scanner = Scanner(Array(code))
        var methods: [(String, [Field])] = []
        var types: [String: TypeExpression] = [:]
        while let keyword = scanner.word() {
            switch keyword {
            case "method":
                let name = scanner.word() ?? ""
                guard case .structure(let fields) = scanner.type() else { continue }
                methods.append((name, fields))
                scanner.skip("->")
                _ = scanner.type()
            case "type":
                let name = scanner.word() ?? ""
                types[name] = scanner.type()
            case "error":
                _ = scanner.word()
                _ = scanner.type()
            default:
                _ = scanner.word()
            }
        }
        self.methods = methods
        self.types = types
    }

    /// A cursor over the interface text.
    private struct Scanner {
        let code: [Character]
        var index = 0

        init(_ code: [Character]) { self.code = code }

        mutating func skipBlanks() {
            while index < code.count, code[index].isWhitespace { index += 1 }
        }

        mutating func skip(_ token: String) {
            skipBlanks()
            if String(code[index..<min(code.count, index + token.count)]) == token { index += token.count }
        }

        /// The next word (letters, digits, `_`, `.`), `nil` at the end.
        mutating func word() -> String? {
            skipBlanks()
            let start = index
            while index < code.count, code[index].isLetter || code[index].isNumber || code[index] == "_" || code[index] == "." { index += 1 }
            if start == index, index < code.count { index += 1 }
            return start < code.count ? String(code[start..<index]) : nil
        }

        mutating func type() -> TypeExpression {
            skipBlanks()
            guard index < code.count else { return .object }
            switch code[index] {
            case "?":
                index += 1
                return .optional(type())
            case "[":
                let map = index + 1 < code.count && code[index + 1] != "]"
                while index < code.count, code[index] != "]" { index += 1 }
                index += 1
                return map ? .map(type()) : .array(type())
            case "(":
                index += 1
                var fields: [Field] = []
                var cases: [String] = []
                while true {
                    skipBlanks()
                    if index >= code.count { break }
                    if code[index] == ")" {
                        index += 1
                        break
                    }
                    if code[index] == "," {
                        index += 1
                        continue
                    }
                    guard let name = word() else { break }
                    skipBlanks()
                    if index < code.count, code[index] == ":" {
                        index += 1
                        fields.append(Field(name: name, type: type()))
                    } else {
                        cases.append(name)
                    }
                }
                return cases.isEmpty ? .structure(fields) : .enumeration(cases)
            default:
                switch word() {
                case "bool": return .bool
                case "int": return .int
                case "float": return .float
                case "string": return .string
                case "object": return .object
                case let name?: return .named(name)
                case nil: return .object
                }
            }
        }
    }
}

/// Makes well-typed parameters for any method of an interface, at random from its types: for
/// tests that call every method without knowing them. Scalars come from small pools, so calls
/// meet each other's names (a list one user made, another's uid).
struct InterfaceCallGenerator: Sendable {
    /// A type the generator cannot make a value of: the test must learn it, not skip the method.
    struct Unsupported: Error, CustomStringConvertible {
        let method: String
        let type: InterfaceModel.TypeExpression
        var description: String { "cannot make a \(type) for \(method): teach InterfaceCallGenerator this type" }
    }

    let interface: InterfaceModel
    let strings: [String]
    let ints: [Int64]
    let floats: [Double]

    /// Parameters for a call of `method`: each required one, and each optional one half the time.
    func parameters(of method: String, using random: inout SeededRandomGenerator) throws -> [String: JSONValue] {
        guard let fields = interface.methods.first(where: { $0.name == method })?.parameters else { return [:] }
        var parameters: [String: JSONValue] = [:]
        for field in fields {
            if let value = try value(of: field.type, for: method, using: &random) { parameters[field.name] = value }
        }
        return parameters
    }

    /// A value of `type`; `nil` for an optional left out.
    private func value(of type: InterfaceModel.TypeExpression, for method: String, using random: inout SeededRandomGenerator) throws -> JSONValue? {
        switch type {
        case .optional(let wrapped):
            return Bool.random(using: &random) ? nil : try value(of: wrapped, for: method, using: &random)
        case .bool: return .bool(Bool.random(using: &random))
        case .int: return ints.randomElement(using: &random).map(JSONValue.int)
        case .float: return floats.randomElement(using: &random).map(JSONValue.double)
        case .string: return strings.randomElement(using: &random).map(JSONValue.string)
        case .enumeration(let cases): return cases.randomElement(using: &random).map(JSONValue.string)
        case .array(let element):
            var items: [JSONValue] = []
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                if let item = try value(of: element, for: method, using: &random) { items.append(item) }
            }
            return .array(items)
        case .structure(let fields):
            var members: [String: JSONValue] = [:]
            for field in fields {
                if let member = try value(of: field.type, for: method, using: &random) { members[field.name] = member }
            }
            return .object(members)
        case .named(let name):
            guard let definition = interface.types[name] else { throw Unsupported(method: method, type: type) }
            return try value(of: definition, for: method, using: &random)
        case .object, .map:
            throw Unsupported(method: method, type: type)
        }
    }
}
