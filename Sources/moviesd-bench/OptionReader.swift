import CommandLineSupport

/// A verb's `--name VALUE` options, parsed by the shared `OptionParser`, read with the checks the
/// bench needs (positive numbers, lists).
struct OptionReader: Sendable {
    private let parsed: ParsedArguments

    /// Parses `arguments`; every one of `names` takes a value, `flags` take none.
    init(_ arguments: [String], names: [String], flags: [String] = []) throws(BenchError) {
        do throws(OptionParseError) {
            parsed = try OptionParser.parse(
                arguments, options: names.map { OptionSpec.option($0, value: "VALUE", help: "") } + flags.map { OptionSpec.flag($0, help: "") })
        } catch {
            switch error {
            case .unknown(let name, _): throw BenchError("unknown option \(name); see --help")
            case .missingValue(let name, _): throw BenchError("\(name) needs a value")
            case .unexpectedValue(let name): throw BenchError("\(name) takes no value")
            }
        }
        if let stray = parsed.positionals.first { throw BenchError("unexpected argument \(stray); see --help") }
    }

    /// The last value given for `name`.
    func value(_ name: String) -> String? { parsed.value(name) }

    /// Whether flag `name` was given.
    func has(_ name: String) -> Bool { parsed.has(name) }

    /// Every value given for `name`, in order.
    func values(_ name: String) -> [String] { parsed.values[name] ?? [] }

    /// A positive integer value.
    func integer(_ name: String) throws(BenchError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let value = Int(text), value > 0 else { throw BenchError("\(name) needs a positive integer") }
        return value
    }

    /// A positive number.
    func number(_ name: String) throws(BenchError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let value = Double(text), value > 0 else { throw BenchError("\(name) needs a positive number") }
        return value
    }

    /// A comma-separated list of positive integers.
    func integers(_ name: String) throws(BenchError) -> [Int]? {
        guard let text = value(name) else { return nil }
        let parts = text.split(separator: ",").map { Int($0) }
        let values = parts.compactMap { $0 }.filter { $0 > 0 }
        guard !values.isEmpty, values.count == parts.count else { throw BenchError("\(name) needs numbers like 1,8,32") }
        return values
    }
}
