/// Why a command line does not fit its options; each program words the sentence itself.
public enum OptionParseError: Error, Sendable, Hashable {
    /// `name` is no option of the program; `known` lists the long names it has (for a suggestion).
    case unknown(name: String, known: [String])
    /// `name` needs a value (placeholder `valueName`) and none followed.
    case missingValue(name: String, valueName: String)
    /// The flag `name` was given a value with `=`.
    case unexpectedValue(name: String)
}
