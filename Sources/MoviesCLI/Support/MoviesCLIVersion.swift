/// The client's version, printed by `movies --version`.
enum MoviesCLIVersion {
    /// The version string.
    static let current = "0.1.0"
}
