import Foundation
import MoviesTestSupport
import Testing

/// The man pages render without warnings (issue 28, item 6): `groff -ww -z -man`.
@Suite(.blocksThreads) struct ManPageLintTests {
    @Test(arguments: ["man/movies.1", "man/moviesd.8", "man/moviesd.conf.5"])
    func renderWithoutWarnings(page: String) throws {
        guard ToolRequirement.require(ToolRequirement.exists("/usr/bin/groff"), "groff (apt install groff-base)") else { return }
        let path = BinaryLocator.packageRoot.appendingPathComponent(page).path
        let result = try ProcessRunner.run("/usr/bin/groff", ["-ww", "-z", "-man", path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(page): \(result.stderr)")
    }
}
