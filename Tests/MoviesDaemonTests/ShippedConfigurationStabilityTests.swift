import Foundation
import MoviesTestSupport
import Testing

/// The shipped `etc/moviesd.conf` (the package's conffile `/etc/moviesd/moviesd.conf`) stays byte for
/// byte the previous release's: dpkg asks about a conffile the admin edited whenever the package's
/// copy changes, and without a terminal that question fails the upgrade (issue 29). New settings and
/// their documentation go into moviesd.conf(5), and admins' changes into `moviesd.conf.d/*.conf`.
///
/// The previous release's file is the committed copy `Tests/Fixtures/moviesd.conf.<version>`, so a
/// clone without tags passes; where git and the release's tag are at hand, the copy is also checked
/// against `git show v<version>:etc/moviesd.conf`.
@Suite struct ShippedConfigurationStabilityTests {
    /// The release whose configuration file upgrades must find unchanged.
    static let previousRelease = "0.1.0"
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // MoviesDaemonTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
    static let shipped = repositoryRoot.appendingPathComponent("etc/moviesd.conf")
    static let previous = repositoryRoot.appendingPathComponent("Tests/Fixtures/moviesd.conf.\(previousRelease)")

    @Test func theShippedFileIsThePreviousReleasesByteForByte() throws {
        let shipped = try Data(contentsOf: Self.shipped)
        let previous = try Data(contentsOf: Self.previous)
        #expect(shipped == previous, """
            etc/moviesd.conf differs from \(Self.previousRelease)'s (Tests/Fixtures/moviesd.conf.\(Self.previousRelease)): \
            an upgrade would stop at dpkg's conffile prompt for every admin who edited it. Document the change \
            in man/moviesd.conf.5 instead and leave the file as it was.
            """)
    }

    @Test(.blocksThreads) func theCommittedCopyIsTheTaggedReleasesFile() throws {
        guard let tagged = Self.gitShow("v\(Self.previousRelease):etc/moviesd.conf") else {
            return  // No git or no tag here (a shallow clone, a source tarball): the committed copy stands.
        }
        #expect(tagged == (try Data(contentsOf: Self.previous)))
    }

    /// The bytes of `git show OBJECT` in the repository, or nil when git or the object is unavailable.
    static func gitShow(_ object: String) -> Data? {
        let git = ["/usr/bin/git", "/bin/git", "/usr/local/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let git else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: git)
        process.arguments = ["-C", repositoryRoot.path, "show", object]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? data : nil
    }
}
