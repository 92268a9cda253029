import Testing
import TMDBStub

struct StubCommandLineTests {
    @Test func parsesOptionsAndFaultFlags() throws {
        let parsed = try StubCommandLine(arguments: [
            "--port", "8080", "--control-port", "0", "--token", "t", "--movies", "50", "--seed", "9",
            "--latency-ms", "20", "--error-rate", "0.5", "--rate-limit-share", "1", "--retry-after", "3",
            "--down", "--port-file", "/tmp/p",
        ])
        #expect(parsed.configuration.port == 8080)
        #expect(parsed.configuration.token == "t")
        #expect(parsed.configuration.movieCount == 50)
        #expect(parsed.configuration.seed == 9)
        #expect(parsed.configuration.faults.latencyMs == 20)
        #expect(parsed.configuration.faults.errorRate == 0.5)
        #expect(parsed.configuration.faults.rateLimit == StubFaults.RateLimit(share: 1, retryAfter: 3))
        #expect(parsed.configuration.faults.down)
        #expect(parsed.portFile == "/tmp/p")
        #expect(!parsed.wantsHelp)
    }

    @Test func shareFlagsWithoutValueMeanAlways() throws {
        let parsed = try StubCommandLine(arguments: ["--hang", "--reset", "0.5", "--malformed-json"])
        #expect(parsed.configuration.faults.hang == 1)
        #expect(parsed.configuration.faults.reset == 0.5)
        #expect(parsed.configuration.faults.malformedJSON == 1)
    }

    @Test func parsesTheAccountOptions() throws {
        let parsed = try StubCommandLine(arguments: ["--auto-approve", "--session-expired", "--drop-after-apply", "0.25", "--writes-only"])
        #expect(parsed.configuration.autoApprove)
        #expect(parsed.configuration.faults.sessionExpired)
        #expect(parsed.configuration.faults.dropAfterApply == 0.25)
        #expect(parsed.configuration.faults.writesOnly)
        let plain = try StubCommandLine(arguments: [])
        #expect(!plain.configuration.autoApprove && plain.configuration.faults.isEmpty)
        #expect(throws: StubCommandLine.InvalidArguments.self) { try StubCommandLine(arguments: ["--drop-after-apply", "2"]) }
    }

    @Test func rejectsUnknownOptionsAndBadValues() {
        #expect(throws: StubCommandLine.InvalidArguments.self) { try StubCommandLine(arguments: ["--bogus"]) }
        #expect(throws: StubCommandLine.InvalidArguments.self) { try StubCommandLine(arguments: ["--port"]) }
        #expect(throws: StubCommandLine.InvalidArguments.self) { try StubCommandLine(arguments: ["--error-rate", "2"]) }
        #expect(throws: StubCommandLine.InvalidArguments.self) { try StubCommandLine(arguments: ["--port", "70000"]) }
    }

    @Test func helpDocumentsEveryFlag() throws {
        #expect(try StubCommandLine(arguments: ["--help"]).wantsHelp)
        for flag in ["--port-file", "--control-port", "--latency-ms", "--error-rate", "--rate-limit-share",
                     "--malformed-json", "--truncate-body", "--reset", "--hang", "--down", "--recording", "SIGUSR1", "/stats",
                     "--auto-approve", "--session-expired", "--drop-after-apply", "--unreadable-writes", "--writes-only", "/account/approve",
                     "/account/expire-sessions", "/3/authentication/token/new", "/3/movie/{id}/account_states"] {
            #expect(StubCommandLine.usage.contains(flag), "\(flag) undocumented")
        }
    }
}
