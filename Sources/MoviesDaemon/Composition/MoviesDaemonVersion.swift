import MoviesDomain

/// The daemon's version, reported by `--version`, `GetInfo` and `Status`.
public enum MoviesDaemonVersion {
    /// Semantic version of this build: the release's (``MoviesdRelease/version``).
    public static let current = MoviesdRelease.version
}
