/// Reads `--name VALUE` pairs.
struct OptionReader: Sendable {
    private var remaining: ArraySlice<String>

    /// Reads from `arguments`.
    init(_ arguments: [String]) { remaining = arguments[...] }

    /// The next option name, or nil at the end.
    mutating func nextName() -> String? { remaining.popFirst() }

    /// The value after `name`.
    mutating func value(_ name: String) throws(BenchError) -> String {
        guard let value = remaining.popFirst() else { throw BenchError("\(name) needs a value") }
        return value
    }

    /// A positive integer value.
    mutating func integer(_ name: String) throws(BenchError) -> Int {
        guard let value = Int(try value(name)), value > 0 else { throw BenchError("\(name) needs a positive integer") }
        return value
    }

    /// A positive number.
    mutating func number(_ name: String) throws(BenchError) -> Double {
        guard let value = Double(try value(name)), value > 0 else { throw BenchError("\(name) needs a positive number") }
        return value
    }

    /// A comma-separated list of positive integers.
    mutating func integers(_ name: String) throws(BenchError) -> [Int] {
        let parts = try value(name).split(separator: ",").map { Int($0) }
        let values = parts.compactMap { $0 }.filter { $0 > 0 }
        guard !values.isEmpty, values.count == parts.count else { throw BenchError("\(name) needs numbers like 1,8,32") }
        return values
    }
}
