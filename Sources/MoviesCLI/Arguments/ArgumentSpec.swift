/// One positional argument a command accepts, for help text.
struct ArgumentSpec: Sendable, Hashable {
    /// The placeholder (`QUERY…`).
    let name: String
    /// One line of help.
    let help: String
}
