/// The release of moviesd this build belongs to: the one place that holds the version.
///
/// `moviesd --version`, `movies --version`, the Varlink `org.varlink.service.GetInfo` and
/// `io.moviesd.Movies.Status` replies, the man pages' `.TH` lines, `NEWS.md`'s first entry and the
/// Debian package (`scripts/package` reads the line below) all show it; `ReleaseVersionTests` fails
/// when the man pages or `NEWS.md` disagree.
public enum MoviesdRelease {
    /// Semantic version of this release (https://semver.org).
    public static let version = "0.3.0"
}
