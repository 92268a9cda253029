/// The daemon's version, reported by `--version`, `GetInfo` and `Status`.
public enum MoviesDaemonVersion {
    /// Semantic version of this build.
    public static let current = "0.1.0"
}
