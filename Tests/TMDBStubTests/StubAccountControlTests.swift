import Foundation
import MoviesTestSupport
import Testing
import TMDBStub

/// The control port's account endpoints and the faults aimed at the account routes.
@Suite(.blocksThreads) struct StubAccountControlTests {
    @Test func postingTheAccountReplacesTheListsGivenAsTheWebsiteWould() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            let posted = try stub.control("POST", "/account", body: #"{"watchlist":[603,550,603],"favorite":[13],"rated":{"550":7,"13":9.5}}"#)
            #expect(posted.status == 200)
            #expect(posted.jsonObject?["account_id"] as? Int == 22_011)
            #expect(posted.jsonObject?["watchlist"] as? [Int] == [603, 550])
            let listed = try #require(try stub.get("/3/account/22011/watchlist/movies?session_id=\(session)").jsonObject)
            #expect((listed["results"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [603, 550])
            #expect(try stub.get("/3/movie/550/account_states?session_id=\(session)").jsonObject?["rated"] as? [String: Double] == ["value": 7])
            _ = try stub.control("POST", "/account", body: #"{"favorite":[]}"#)
            let state = try stub.accountState()
            #expect(state["watchlist"] as? [Int] == [603, 550])
            #expect(state["favorite"] as? [Int] == [])
            #expect(state["rated"] as? [String: Double] == ["13": 9.5, "550": 7])
            #expect(state["writes"] as? Int == 0)
            #expect(state["sessions"] as? Int == 1)
        }
    }

    @Test(arguments: ["not json", #"{"watchlist":[0]}"#, #"{"watchlist":603}"#, #"{"favorite":["603"]}"#,
                      #"{"rated":{"550":11}}"#, #"{"rated":{"x":7}}"#, #"{"rated":{"550":7.2}}"#, #"{"watchlist":[1],"rated":[550]}"#])
    func anAccountTheWebsiteWouldRefuseIs400(body: String) throws {
        try RunningStub.with { stub in
            let refused = try stub.control("POST", "/account", body: body)
            #expect(refused.status == 400)
            #expect(refused.jsonObject?["error"] is String)
            #expect(try stub.accountState()["watchlist"] as? [Int] == [])
        }
    }

    @Test func deletingTheAccountEmptiesItButKeepsSessionsAndResetKeepsIt() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            _ = try stub.send("POST", "/3/account/22011/watchlist?session_id=\(session)", body: #"{"media_type":"movie","media_id":603,"watchlist":true}"#)
            _ = try stub.send("POST", "/3/movie/550/rating?session_id=\(session)", body: #"{"value":6}"#)
            #expect(try stub.control("POST", "/reset").status == 200)
            let kept = try stub.accountState()
            #expect(kept["watchlist"] as? [Int] == [603])
            #expect(kept["writes"] as? Int == 2)
            let cleared = try #require(try stub.control("DELETE", "/account").jsonObject)
            #expect(cleared["watchlist"] as? [Int] == [])
            #expect(cleared["rated"] as? [String: Double] == [:])
            #expect(cleared["writes"] as? Int == 0)
            #expect((cleared["write_log"] as? [Any])?.isEmpty == true)
            #expect(cleared["sessions"] as? Int == 1)
            #expect(try stub.get("/3/account?session_id=\(session)").status == 200)
        }
    }

    @Test func expiringSessionsEndsEveryOneButNewOnesWork() throws {
        try RunningStub.with { stub in
            let sessions = try [stub.login(), stub.login()]
            let expired = try stub.control("POST", "/account/expire-sessions")
            #expect(expired.jsonObject?["expired"] as? Int == 2)
            for session in sessions {
                #expect(try stub.get("/3/account?session_id=\(session)").statusAndCode == [401, 3])
            }
            #expect(try stub.accountState()["sessions"] as? Int == 0)
            let fresh = try stub.login()
            #expect(try stub.get("/3/account?session_id=\(fresh)").status == 200)
        }
    }

    @Test func theUnknownEndpointAnswerListsTheAccountEndpoints() throws {
        try RunningStub.with { stub in
            let unknown = try stub.control("PUT", "/account")
            #expect(unknown.status == 404)
            #expect((unknown.jsonObject?["error"] as? String)?.contains("/account/expire-sessions") == true)
        }
    }

    @Test func sessionExpiredRefusesEverySessionButNotTheRest() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            #expect(try stub.control("POST", "/faults", body: #"{"sessionExpired":true}"#).jsonObject?["sessionExpired"] as? Bool == true)
            #expect(try stub.get("/3/account?session_id=\(session)").statusAndCode == [401, 3])
            #expect(try stub.get("/3/movie/603/account_states?session_id=\(session)").statusAndCode == [401, 3])
            let write = try stub.send("POST", "/3/account/22011/watchlist?session_id=\(session)", body: #"{"media_type":"movie","media_id":603,"watchlist":true}"#)
            #expect(write.statusAndCode == [401, 3])
            #expect(try stub.send("DELETE", "/3/authentication/session", body: #"{"session_id":"\#(session)"}"#).statusAndCode == [401, 3])
            #expect(try stub.accountState()["watchlist"] as? [Int] == [])
            #expect(try stub.get("/3/movie/603").status == 200)
            #expect(try stub.get("/3/authentication/token/new").status == 200)
            _ = try stub.control("POST", "/faults", body: #"{"session_expired":false}"#)
            #expect(try stub.get("/3/account?session_id=\(session)").status == 200)
        }
    }

    @Test func dropAfterApplyResetsTheConnectionOfAnAppliedWrite() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            #expect(try stub.control("POST", "/faults", body: #"{"dropAfterApply":1}"#).status == 200)
            #expect(throws: RawHTTPError.reset) {
                _ = try stub.send("POST", "/3/account/22011/watchlist?session_id=\(session)", body: #"{"media_type":"movie","media_id":603,"watchlist":true}"#)
            }
            #expect(throws: RawHTTPError.reset) {
                _ = try stub.send("POST", "/3/movie/550/rating?session_id=\(session)", body: #"{"value":6.5}"#)
            }
            let state = try stub.accountState()
            #expect(state["watchlist"] as? [Int] == [603])
            #expect(state["rated"] as? [String: Double] == ["550": 6.5])
            #expect(state["writes"] as? Int == 2)
            #expect(try stub.get("/3/account/22011/watchlist/movies?session_id=\(session)").status == 200)
            #expect(try stub.get("/3/search/movie?query=matrix").status == 200)
        }
    }

    @Test func unreadableWritesAnswer200WithAnHTMLBodyWithoutApplyingTheWrite() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            #expect(try stub.control("POST", "/faults", body: #"{"unreadableWrites":1}"#).status == 200)
            let write = try stub.send("POST", "/3/account/22011/watchlist?session_id=\(session)", body: #"{"media_type":"movie","media_id":603,"watchlist":true}"#)
            #expect(write.status == 200)
            #expect((try? JSONSerialization.jsonObject(with: Data(write.body))) == nil, "the body cannot be read as JSON")
            let state = try stub.accountState()
            #expect(state["watchlist"] as? [Int] == [])
            #expect(try stub.get("/3/search/movie?query=matrix").status == 200, "reads are not touched")
        }
    }

    @Test func writesOnlyErrorsFailWritesWithoutApplyingThemWhileReadsWork() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            #expect(try stub.control("POST", "/faults", body: #"{"writesOnly":true,"errorRate":1}"#).status == 200)
            let write = try stub.send("POST", "/3/account/22011/watchlist?session_id=\(session)", body: #"{"media_type":"movie","media_id":603,"watchlist":true}"#)
            #expect(write.statusAndCode == [500, 11])
            #expect(try stub.send("POST", "/3/movie/603/rating?session_id=\(session)", body: #"{"value":8}"#).status == 500)
            #expect(try stub.send("DELETE", "/3/movie/603/rating?session_id=\(session)").status == 500)
            let state = try stub.accountState()
            #expect(state["watchlist"] as? [Int] == [])
            #expect(state["writes"] as? Int == 0)
            #expect(try stub.get("/3/search/movie?query=matrix").status == 200)
            #expect(try stub.get("/3/account?session_id=\(session)").status == 200)
            #expect(try stub.get("/3/account/22011/watchlist/movies?session_id=\(session)").status == 200)
        }
    }

    @Test func writesOnlyRateLimitsAndResetsOnlyWrites() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            _ = try stub.control("POST", "/faults", body: #"{"writes_only":true,"rateLimit":{"share":1,"retryAfter":4}}"#)
            let limited = try stub.send("POST", "/3/movie/603/rating?session_id=\(session)", body: #"{"value":8}"#)
            #expect(limited.statusAndCode == [429, 25])
            #expect(limited.headers["retry-after"] == "4")
            #expect(try stub.get("/3/movie/603/account_states?session_id=\(session)").status == 200)
            _ = try stub.control("POST", "/faults", body: #"{"rateLimit":0,"reset":1}"#)
            #expect(throws: RawHTTPError.reset) {
                _ = try stub.send("POST", "/3/movie/603/rating?session_id=\(session)", body: #"{"value":8}"#)
            }
            #expect(try stub.get("/3/movie/603").status == 200)
            #expect(try stub.accountState()["rated"] as? [String: Double] == [:])
        }
    }

    @Test func listsOnlyErrorsFailTheAccountsListReadsWhileWritesApply() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            #expect(try stub.control("POST", "/faults", body: #"{"lists_only":true,"errorRate":1}"#).status == 200)
            #expect(try stub.get("/3/account/22011/watchlist/movies?session_id=\(session)").statusAndCode == [500, 11])
            #expect(try stub.get("/3/account/22011/rated/movies?session_id=\(session)").status == 500)
            let write = try stub.send("POST", "/3/account/22011/watchlist?session_id=\(session)", body: #"{"media_type":"movie","media_id":603,"watchlist":true}"#)
            #expect(write.status == 201)
            #expect(try stub.accountState()["watchlist"] as? [Int] == [603])
            #expect(try stub.get("/3/account?session_id=\(session)").status == 200)
            #expect(try stub.get("/3/search/movie?query=matrix").status == 200)
        }
    }

    @Test func withoutWritesOnlyAnErrorHitsReadsAndWritesAndAppliesNothing() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            _ = try stub.control("POST", "/faults", body: #"{"errorRate":1}"#)
            #expect(try stub.get("/3/account?session_id=\(session)").status == 500)
            #expect(try stub.send("POST", "/3/movie/603/rating?session_id=\(session)", body: #"{"value":8}"#).status == 500)
            #expect(try stub.accountState()["writes"] as? Int == 0)
        }
    }

    @Test func aHangingWriteIsNotApplied() throws {
        try RunningStub.with({ $0.faults.writesOnly = true }) { stub in
            let session = try stub.login()
            stub.server.faults.hang = 1
            #expect(throws: RawHTTPError.timedOut) {
                _ = try RawHTTPClient.send(
                    port: stub.port, method: "POST", target: "/3/movie/603/rating?session_id=\(session)",
                    headers: ["Authorization": "Bearer stub-token"], body: Array(#"{"value":8}"#.utf8), timeoutSeconds: 1
                )
            }
            #expect(try stub.get("/3/account?session_id=\(session)").status == 200)
            #expect(try stub.accountState()["writes"] as? Int == 0)
        }
    }
}
