import Foundation
import MoviesTestSupport
import Glibc
import Testing
import TMDBStub

/// Fault injection on the main port, switched in-process and through the control port.
@Suite(.blocksThreads) struct TMDBStubServerFaultTests {
    @Test func latencyDelaysTheAnswer() throws {
        try RunningStub.with({ $0.faults.latencyMs = 300 }) { stub in
            let start = ContinuousClock.now
            let response = try stub.get("/3/configuration")
            #expect(response.status == 200)
            #expect(ContinuousClock.now - start >= .milliseconds(250))
        }
    }

    @Test func errorRateAnswers500WithTMDBBody() throws {
        try RunningStub.with({ $0.faults.errorRate = 1 }) { stub in
            let response = try stub.get("/3/movie/603")
            #expect(response.status == 500)
            #expect(response.jsonObject?["success"] as? Bool == false)
            #expect(response.jsonObject?["status_code"] is Int)
        }
    }

    @Test func rateLimitAnswers429WithRetryAfter() throws {
        try RunningStub.with { stub in
            let set = try stub.control("POST", "/faults", body: #"{"rateLimit":{"share":1.0,"retryAfter":2}}"#)
            #expect(set.status == 200)
            let response = try stub.get("/3/search/movie?query=star")
            #expect(response.status == 429)
            #expect(response.headers["retry-after"] == "2")
            #expect(response.jsonObject?["status_code"] as? Int == 25)
            #expect(try stub.control("POST", "/reset").status == 200)
            #expect(try stub.get("/3/search/movie?query=star").status == 200)
        }
    }

    @Test func malformedJSONDoesNotParse() throws {
        try RunningStub.with({ $0.faults.malformedJSON = 1 }) { stub in
            let response = try stub.get("/3/movie/603")
            #expect(response.status == 200)
            #expect(!response.body.isEmpty)
            #expect((try? JSONSerialization.jsonObject(with: Data(response.body))) == nil)
        }
    }

    @Test func truncatedBodyEndsBeforeContentLength() throws {
        try RunningStub.with({ $0.faults.truncateBody = 1 }) { stub in
            #expect {
                _ = try stub.get("/3/movie/603")
            } throws: { error in
                guard case RawHTTPError.truncated(let expected, let received) = error else { return false }
                return received < expected
            }
        }
    }

    @Test func resetClosesWithRST() throws {
        try RunningStub.with({ $0.faults.reset = 1 }) { stub in
            #expect(throws: RawHTTPError.reset) { _ = try stub.get("/3/movie/603") }
        }
    }

    @Test func hangNeverAnswers() throws {
        try RunningStub.with({ $0.faults.hang = 1 }) { stub in
            #expect(throws: RawHTTPError.timedOut) { _ = try stub.get("/3/movie/603", timeoutSeconds: 1) }
        }
    }

    @Test func downRefusesConnectionsAndUpReopensTheSamePort() throws {
        try RunningStub.with { stub in
            #expect(try stub.get("/3/configuration").status == 200)
            let down = try stub.control("POST", "/faults", body: #"{"down":true}"#)
            #expect(down.jsonObject?["down"] as? Bool == true)
            #expect(throws: RawHTTPError.connectFailed(ECONNREFUSED)) { _ = try stub.get("/3/configuration") }
            _ = try stub.control("POST", "/faults", body: #"{"down":false}"#)
            #expect(try stub.get("/3/configuration").status == 200)
            stub.server.faults.down = true
            #expect(throws: RawHTTPError.connectFailed(ECONNREFUSED)) { _ = try stub.get("/3/configuration") }
            stub.server.faults.down = false
            #expect(stub.server.ports.port == stub.port)
            #expect(try stub.get("/3/configuration").status == 200)
        }
    }

    @Test func startingDownKeepsThePortForLater() throws {
        try RunningStub.with({ $0.faults.down = true }) { stub in
            #expect(throws: RawHTTPError.connectFailed(ECONNREFUSED)) { _ = try stub.get("/3/configuration") }
            _ = try stub.control("POST", "/reset")
            #expect(try stub.get("/3/configuration").status == 200)
        }
    }

    @Test func controlPortReportsAndValidatesFaults() throws {
        try RunningStub.with { stub in
            let bad = try stub.control("POST", "/faults", body: #"{"errorRate":7}"#)
            #expect(bad.status == 400)
            _ = try stub.control("POST", "/faults", body: #"{"latencyMs":1,"errorRate":0.5}"#)
            let current = try #require(try stub.control("GET", "/faults").jsonObject)
            #expect(current["errorRate"] as? Double == 0.5)
            #expect(stub.server.faults.latencyMs == 1)
            #expect(try stub.control("GET", "/nothing").status == 404)
        }
    }
}
