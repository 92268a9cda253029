import Foundation
import Testing
@testable import MoviesDaemon

@Suite struct LoggerTests {
    let date = Date(timeIntervalSince1970: 1_795_316_400) // 2026-11-22T03:00:00Z

    @Test func plainLinesCarryTimestampIdentifierPidAndLevel() {
        let logger = Logger(minimumLevel: .debug)
        #expect(logger.formattedLine(level: .warning, message: "disk slow", date: date) == "2026-11-22T03:00:00Z moviesd[\(getpid())]: warning: disk slow\n")
    }

    @Test(arguments: [(LogLevel.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3)])
    func journalLinesCarryPriorityPrefixes(level: LogLevel, priority: Int) {
        let logger = Logger(minimumLevel: .debug, environment: ["JOURNAL_STREAM": "8:12345"])
        #expect(logger.usesJournalFormat)
        #expect(logger.formattedLine(level: level, message: "m", date: date) == "<\(priority)>m\n")
    }

    @Test func emptyJournalStreamMeansPlainFormat() {
        #expect(!Logger(minimumLevel: .info, environment: ["JOURNAL_STREAM": ""]).usesJournalFormat)
        #expect(!Logger(minimumLevel: .info, environment: [:]).usesJournalFormat)
    }

    @Test func secretsAreRedactedAndLinesStaySingle() {
        let logger = Logger(usesJournalFormat: true).redacting("tok123").redacting("").redacting("k3y")
        let line = logger.formattedLine(level: .error, message: "GET /3/search?api_key=k3y with tok123\nBearer tok123", date: date)
        #expect(line == "<3>GET /3/search?api_key=[redacted] with [redacted]\\nBearer [redacted]\n")
    }

    @Test func onlyWholeTokensAreRedacted() {
        // Before: the token "tok" turned "token" into "[redacted]en".
        let logger = Logger(usesJournalFormat: true).redacting("tok")
        let line = logger.formattedLine(level: .info, message: "token tok, tokens; Bearer tok. x-tok tok_y (tok)", date: date)
        #expect(line == "<6>token [redacted], tokens; Bearer [redacted]. x-tok tok_y ([redacted])\n")
    }

    @Test func writesOnlyEnabledLevelsToTheDescriptor() throws {
        let pipe = try LogPipe()
        defer { pipe.close() }
        let logger = Logger(minimumLevel: .notice, usesJournalFormat: true, fileDescriptor: pipe.writeEnd).redacting("s3cret")
        logger.debug("hidden")
        logger.info("hidden too")
        logger.notice("shown s3cret")
        logger.error("boom")
        #expect(pipe.readAvailable() == "<5>shown [redacted]\n<3>boom\n")
        #expect(!logger.isEnabled(.info))
        #expect(logger.isEnabled(.warning))
    }

    @Test func levelsParseAndOrder() {
        #expect(LogLevel(name: "WARNING") == .warning)
        #expect(LogLevel(name: "chatty") == nil)
        #expect(LogLevel.debug < .info && LogLevel.warning < .error)
    }
}
