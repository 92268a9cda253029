import Testing
import TMDBStub

struct StubFaultsTests {
    @Test func applyingJSONChangesOnlyTheGivenFaults() throws {
        var start = StubFaults()
        start.latencyMs = 5
        let body = #"{"errorRate":0.25,"rateLimit":{"share":1.0,"retryAfter":2},"hang":true,"down":true}"#
        let faults = try start.applying(jsonBody: Array(body.utf8))
        #expect(faults.latencyMs == 5)
        #expect(faults.errorRate == 0.25)
        #expect(faults.rateLimit == StubFaults.RateLimit(share: 1, retryAfter: 2))
        #expect(faults.hang == 1)
        #expect(faults.down)
    }

    @Test func accountFaultsTakeCamelCaseAndSnakeCaseNames() throws {
        let camel = try StubFaults().applying(jsonBody: Array(#"{"sessionExpired":true,"dropAfterApply":0.5,"writesOnly":true}"#.utf8))
        #expect(camel.sessionExpired && camel.writesOnly && camel.dropAfterApply == 0.5)
        let snake = try camel.applying(jsonBody: Array(#"{"session_expired":false,"drop_after_apply":1,"writes_only":0}"#.utf8))
        #expect(!snake.sessionExpired && !snake.writesOnly && snake.dropAfterApply == 1)
        #expect(throws: StubFaults.InvalidFaults.self) { try StubFaults().applying(jsonBody: Array(#"{"dropAfterApply":1.5}"#.utf8)) }
    }

    @Test(arguments: [#"{"errorRate":2}"#, #"{"nonsense":1}"#, #"[1]"#, "not json", #"{"latencyMs":-1}"#])
    func invalidBodiesAreRejected(body: String) {
        #expect(throws: StubFaults.InvalidFaults.self) { try StubFaults().applying(jsonBody: Array(body.utf8)) }
    }

    @Test func jsonNamesEveryFault() {
        let text = String(decoding: StubFaults().json.serialized(), as: UTF8.self)
        for name in ["latencyMs", "errorRate", "rateLimit", "malformedJSON", "truncateBody", "reset", "hang", "down",
                     "sessionExpired", "dropAfterApply", "unreadableWrites", "writesOnly", "listsOnly"] {
            #expect(text.contains("\"\(name)\""))
        }
        #expect(StubFaults().isEmpty)
    }
}
