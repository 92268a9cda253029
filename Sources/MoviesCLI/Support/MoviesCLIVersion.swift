import MoviesDomain

/// The client's version, printed by `movies --version`.
enum MoviesCLIVersion {
    /// The version string.
    static let current = MoviesdRelease.version
}
