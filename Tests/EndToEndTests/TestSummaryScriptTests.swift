import Foundation
import Testing

/// Issue 46: `scripts/test` from a clone not beside `../shared` exited 0 with 12 fixture tests
/// skipped, said only in the log. Its last line counts the run and says why tests were skipped
/// (`scripts/lib/test-summary.awk`, over swift test's output).
@Suite("scripts/test's last line", .serialized, .blocksThreads)
struct TestSummaryScriptTests {
    static let script = BinaryLocator.packageRoot.appendingPathComponent("scripts/lib/test-summary.awk").path

    /// The summary of `log` (swift test's output), with fixtures looked for in `/clone/../shared`.
    static func summary(_ log: String, status: Int = 0) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("summary-\(UUID().uuidString.prefix(8)).log")
        try log.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ProcessRunner.run("/usr/bin/env", ["awk", "-v", "status=\(status)", "-v", "fixtures=/work/shared/tmdb-fixtures", "-f", script, file.path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test("fixture tests skipped: counted on the last line, with the directory and how to point elsewhere")
    func fixturesMissing() throws {
        let log = """
            ◇ Test decodes() started.
            ➜ Test movieRecordDecodes(entry:) skipped: "TMDB fixtures not found at /work/shared/tmdb-fixtures (set MOVIESD_FIXTURES to the tmdb-fixtures directory); fixture tests skipped"
            ➜ Test storesRecordedPage() skipped: "needs ../shared/tmdb-fixtures or $MOVIESD_FIXTURES"
            ◇ skipped: the TMDB recordings at /work/shared/tmdb-fixtures (set MOVIESD_FIXTURES) is not installed (install it to run this test)
            ✔ Test decodes() passed after 0.001 seconds.
            ✔ Test run with 10 tests in 3 suites passed after 2.2 seconds.

            """
        #expect(try Self.summary(log) == "scripts/test: 7 passed, 0 failed, 3 skipped: the TMDB fixtures were not found at /work/shared/tmdb-fixtures (set MOVIESD_FIXTURES or clone beside ../shared)\n")
    }

    @Test("several reasons each say how many; failures are counted; nothing skipped says 0")
    func reasonsAndFailures() throws {
        let log = """
            ✘ Test a() recorded an issue at A.swift:1:1: Expectation failed
            ✘ Test a() failed after 0.1 seconds with 1 issue.
            ✘ Test b(x:) failed after 0.1 seconds with 2 issues.
            ◇ skipped: zsh is not installed (install it to run this test)
            ◇ skipped: fish is not installed (install it to run this test)
            ➜ Test c() skipped: "no user on this machine has a supplementary group"
            ◇ skipped: zsh is not installed (install it to run this test)
            ✘ Suite S failed after 0.2 seconds with 3 issues.
            ✘ Test run with 20 tests in 4 suites failed after 0.3 seconds with 3 issues.

            """
        #expect(try Self.summary(log, status: 1) == "scripts/test: 14 passed, 2 failed, 4 skipped: 2 because zsh is not installed; 1 because fish is not installed; 1 because no user on this machine has a supplementary group\n")
        #expect(try Self.summary("✔ Test run with 1183 tests in 97 suites passed after 30 seconds.\n") == "scripts/test: 1183 passed, 0 failed, 0 skipped\n")
    }

    @Test("no summary from swift test (a crash) says so")
    func noSummary() throws {
        #expect(try Self.summary("*** Program crashed: Illegal instruction ***\n", status: 132) == "scripts/test: swift test ended without its summary (exit status 132)\n")
    }

    @Test("scripts/test prints it last")
    func scriptUsesIt() throws {
        let text = try String(contentsOf: BinaryLocator.packageRoot.appendingPathComponent("scripts/test"), encoding: .utf8)
        #expect(text.contains("-f scripts/lib/test-summary.awk"))
        #expect(text.hasSuffix("summary \"$status\"\nexit \"$status\"\n"))
    }
}
