import Varlink

extension ParameterReader {
    /// An optional array of strings; a missing or null one is empty.
    func strings(_ name: String) throws(VarlinkError) -> [String] {
        guard let value = call.parameter(name), !value.isNull else { return [] }
        guard let array = value.arrayValue else { throw VarlinkError.invalidParameter(name) }
        var strings: [String] = []
        for element in array {
            guard let string = element.stringValue else { throw VarlinkError.invalidParameter(name) }
            strings.append(string)
        }
        return strings
    }

    /// An optional array of integers; a missing or null one is empty.
    func ints(_ name: String) throws(VarlinkError) -> [Int] {
        guard let value = call.parameter(name), !value.isNull else { return [] }
        guard let array = value.arrayValue else { throw VarlinkError.invalidParameter(name) }
        var ints: [Int] = []
        for element in array {
            guard let int = element.intValue, let narrowed = Int(exactly: int) else { throw VarlinkError.invalidParameter(name) }
            ints.append(narrowed)
        }
        return ints
    }
}
