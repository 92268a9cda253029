import Foundation
import MoviesTestSupport
import Testing
import TMDBStub

/// The account's writes (watchlist, favourites, ratings) with TMDB's status codes, what they
/// change, and the control port's view of them.
@Suite(.blocksThreads) struct StubAccountWriteTests {
    @Test(arguments: ["watchlist", "favorite"])
    func addingUpdatingAndRemovingAnswerCodes1_12_13(list: String) throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            func mark(_ on: Bool) throws -> RawHTTPResponse {
                try stub.send("POST", "/3/account/22011/\(list)?session_id=\(session)", body: #"{"media_type":"movie","media_id":603,"\#(list)":\#(on)}"#)
            }
            let added = try mark(true)
            #expect(added.statusAndCode == [201, 1])
            #expect(String(decoding: added.body, as: UTF8.self) == #"{"success":true,"status_code":1,"status_message":"Success."}"#)
            let again = try mark(true)
            #expect(again.statusAndCode == [201, 12])
            #expect(again.jsonObject?["status_message"] as? String == "The item/record was updated successfully.")
            #expect(try stub.accountState()[list] as? [Int] == [603])
            let removed = try mark(false)
            #expect(removed.statusAndCode == [200, 13])
            #expect(removed.jsonObject?["status_message"] as? String == "The item/record was deleted successfully.")
            #expect(try stub.accountState()[list] as? [Int] == [])
            #expect(try mark(false).statusAndCode == [200, 13])
            #expect(try stub.accountState()["writes"] as? Int == 4)
        }
    }

    @Test(arguments: [
        "not json",
        #"{"media_id":603,"watchlist":true}"#,
        #"{"media_type":"tv","media_id":603,"watchlist":true}"#,
        #"{"media_type":"movie","media_id":603}"#,
        #"{"media_type":"movie","media_id":"603","watchlist":true}"#,
        #"{"media_type":"movie","media_id":603,"watchlist":1}"#,
        #"{"media_type":"movie","media_id":60.5,"watchlist":true}"#,
    ])
    func aWriteWithBadParametersIs422Code5(body: String) throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            let refused = try stub.send("POST", "/3/account/22011/watchlist?session_id=\(session)", body: body)
            #expect(refused.statusAndCode == [422, 5])
            #expect(refused.jsonObject?["status_message"] as? String == "Invalid parameters: Your request parameters are incorrect.")
            #expect(try stub.accountState()["writes"] as? Int == 0)
        }
    }

    @Test func aWriteForABadOrUnknownMovieOrAccountIs404() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            func add(_ id: Int, account: Int = 22_011) throws -> RawHTTPResponse {
                try stub.send("POST", "/3/account/\(account)/watchlist?session_id=\(session)", body: #"{"media_type":"movie","media_id":\#(id),"watchlist":true}"#)
            }
            #expect(try add(0).statusAndCode == [404, 6])
            #expect(try add(-5).statusAndCode == [404, 6])
            #expect(try add(0).jsonObject?["status_message"] as? String == "Invalid id: The pre-requisite id is invalid or not found.")
            #expect(try add(999_999_999).statusAndCode == [404, 34])
            #expect(try add(603, account: 1).statusAndCode == [404, 34])
            #expect(try stub.send("PUT", "/3/account/22011/watchlist?session_id=\(session)").statusAndCode == [404, 34])
            #expect(try stub.accountState()["watchlist"] as? [Int] == [])
            #expect(try add(603).status == 201)
        }
    }

    @Test func aWriteWithoutAValidSessionIs401Code3AndNotApplied() throws {
        try RunningStub.with { stub in
            _ = try stub.login()
            let body = #"{"media_type":"movie","media_id":603,"watchlist":true}"#
            #expect(try stub.send("POST", "/3/account/22011/watchlist", body: body).statusAndCode == [401, 3])
            #expect(try stub.send("POST", "/3/account/22011/watchlist?session_id=nope", body: body).statusAndCode == [401, 3])
            #expect(try stub.send("POST", "/3/movie/603/rating", body: #"{"value":8}"#).statusAndCode == [401, 3])
            #expect(try stub.send("DELETE", "/3/movie/603/rating").statusAndCode == [401, 3])
            let state = try stub.accountState()
            #expect(state["watchlist"] as? [Int] == [])
            #expect(state["rated"] as? [String: Double] == [:])
            #expect(state["writes"] as? Int == 0)
        }
    }

    @Test func ratingAnswers1ThenUpdated12AndDeleting13() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            func rate(_ body: String, movie: String = "603") throws -> RawHTTPResponse {
                try stub.send("POST", "/3/movie/\(movie)/rating?session_id=\(session)", body: body)
            }
            #expect(try rate(#"{"value":8.5}"#).statusAndCode == [201, 1])
            #expect(try rate(#"{"value":8.5}"#).statusAndCode == [201, 12])
            #expect(try rate(#"{"value":7}"#).statusAndCode == [201, 12])
            #expect(try stub.accountState()["rated"] as? [String: Double] == ["603": 7])
            #expect(try rate(#"{"value":8}"#, movie: "999999999").statusAndCode == [404, 34])
            #expect(try rate(#"{"value":8}"#, movie: "abc").statusAndCode == [404, 6])
            let deleted = try stub.send("DELETE", "/3/movie/603/rating?session_id=\(session)")
            #expect(deleted.statusAndCode == [200, 13])
            #expect(try stub.accountState()["rated"] as? [String: Double] == [:])
            #expect(try stub.send("DELETE", "/3/movie/603/rating?session_id=\(session)").statusAndCode == [200, 13])
            #expect(try stub.send("DELETE", "/3/movie/999999999/rating?session_id=\(session)").statusAndCode == [404, 34])
            #expect(try stub.get("/3/movie/603/rating?session_id=\(session)").statusAndCode == [404, 34])
        }
    }

    @Test(arguments: [
        (#"{"value":0}"#, "Value too low: Value must be greater than 0."),
        (#"{"value":0.4}"#, "Value too low: Value must be greater than 0."),
        (#"{"value":10.5}"#, "Value too high: Value must be less than, or equal to 10.0."),
        (#"{"value":7.3}"#, "Value invalid: Values must be a multiple of 0.50."),
    ])
    func aRatingOutsideTheScaleIs400Code18(body: String, message: String) throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            let refused = try stub.send("POST", "/3/movie/603/rating?session_id=\(session)", body: body)
            #expect(refused.statusAndCode == [400, 18])
            #expect(refused.jsonObject?["status_message"] as? String == message)
            #expect(try stub.accountState()["rated"] as? [String: Double] == [:])
        }
    }

    @Test(arguments: ["", "{}", #"{"value":"8"}"#, #"{"value":true}"#, #"{"value":null}"#])
    func aRatingWithoutANumberIs422Code5(body: String) throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            #expect(try stub.send("POST", "/3/movie/603/rating?session_id=\(session)", body: body).statusAndCode == [422, 5])
        }
    }

    @Test func ratingAMovieTakesItOffTheWatchlist() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            for id in [603, 550] {
                _ = try stub.send("POST", "/3/account/22011/watchlist?session_id=\(session)", body: #"{"media_type":"movie","media_id":\#(id),"watchlist":true}"#)
            }
            #expect(try stub.accountState()["watchlist"] as? [Int] == [603, 550])
            #expect(try stub.send("POST", "/3/movie/603/rating?session_id=\(session)", body: #"{"value":9}"#).status == 201)
            #expect(try stub.accountState()["watchlist"] as? [Int] == [550])
            #expect(try stub.get("/3/movie/603/account_states?session_id=\(session)").jsonObject?["watchlist"] as? Bool == false)
        }
    }

    @Test func everyAppliedWriteIsCountedAndLogged() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            _ = try stub.send("POST", "/3/account/22011/watchlist?session_id=\(session)", body: #"{"media_type":"movie","media_id":603,"watchlist":true}"#)
            _ = try stub.send("POST", "/3/account/22011/favorite?session_id=\(session)", body: #"{"media_type":"movie","media_id":550,"favorite":true}"#)
            _ = try stub.send("POST", "/3/movie/603/rating?session_id=\(session)", body: #"{"value":9}"#)
            _ = try stub.send("POST", "/3/movie/603/rating?session_id=\(session)", body: #"{"value":11}"#)
            _ = try stub.send("DELETE", "/3/movie/603/rating?session_id=\(session)")
            let state = try stub.accountState()
            #expect(state["writes"] as? Int == 4)
            let log = try #require(state["write_log"] as? [[String: Any]])
            #expect(log.compactMap { $0["seq"] as? Int } == [1, 2, 3, 4])
            #expect(log.compactMap { $0["kind"] as? String } == ["watchlist", "favorite", "rating", "rating"])
            #expect(log.compactMap { $0["movie"] as? Int } == [603, 550, 603, 603])
            #expect(log[0]["value"] as? Bool == true && log[1]["value"] as? Bool == true)
            #expect(log[2]["value"] as? Double == 9)
            #expect(log[3]["value"] is NSNull)
            #expect(stub.server.account.writeCount == 4)
        }
    }
}
