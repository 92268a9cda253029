import Foundation
import MoviesDomain
import Testing

/// Everything that states the release agrees with ``MoviesdRelease/version``: the man pages' `.TH`
/// lines and `NEWS.md`'s first entry (the package's changelog is generated from it).
@Suite struct MoviesdReleaseTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // MoviesDomainTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    @Test func theVersionIsSemantic() {
        let parts = MoviesdRelease.version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && Int($0) != nil })
    }

    @Test(arguments: ["man/movies.1", "man/moviesd.8", "man/moviesd.conf.5"])
    func manPageTitleLineNamesTheRelease(page: String) throws {
        let text = try String(contentsOf: Self.repositoryRoot.appendingPathComponent(page), encoding: .utf8)
        let title = text.split(separator: "\n").first { $0.hasPrefix(".TH ") }
        #expect(title?.contains("\"moviesd \(MoviesdRelease.version)\"") == true, "\(page): \(title ?? "no .TH line")")
    }

    @Test func newsStartsWithThisRelease() throws {
        let text = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("NEWS.md"), encoding: .utf8)
        let firstEntry = text.split(separator: "\n").first { $0.hasPrefix("## ") }
        // "## 0.2.0 (2026-11-26)": scripts/package turns each entry into a Debian changelog entry.
        #expect(firstEntry?.hasPrefix("## \(MoviesdRelease.version) (") == true, "NEWS.md: \(firstEntry ?? "no '## VERSION (DATE)' entry")")
    }
}
