import Foundation
import MoviesTestSupport
import Synchronization
import Testing
import TMDBStub

/// TMDB's login (request token → approval → session) and the account's reads: details, the
/// paged watchlist, favourite and rated lists, and a movie's account states.
@Suite(.blocksThreads) struct StubAccountTests {
    @Test func loginNeedsAnApprovedTokenWhichASessionUsesUp() throws {
        try RunningStub.with { stub in
            let issued = try stub.get("/3/authentication/token/new")
            #expect(issued.status == 200)
            #expect(issued.jsonObject?["success"] as? Bool == true)
            let token = try #require(issued.jsonObject?["request_token"] as? String)
            #expect(isFortyHex(token))
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
            let expiresText = try #require(issued.jsonObject?["expires_at"] as? String)
            let expiresAt = try #require(formatter.date(from: expiresText))
            #expect(abs(expiresAt.timeIntervalSinceNow - 3_600) < 10)

            let body = #"{"request_token":"\#(token)"}"#
            #expect(try stub.send("POST", "/3/authentication/session/new", body: body).statusAndCode == [401, 17])
            #expect(try stub.control("POST", "/account/approve", body: body).status == 200)
            let created = try stub.send("POST", "/3/authentication/session/new", body: body)
            #expect(created.status == 200)
            #expect(created.jsonObject?["success"] as? Bool == true)
            let session = try #require(created.jsonObject?["session_id"] as? String)
            #expect(isFortyHex(session))
            let reused = try stub.send("POST", "/3/authentication/session/new", body: body)
            #expect(reused.statusAndCode == [401, 33])
            #expect(reused.jsonObject?["status_message"] as? String == "Invalid request token: The request token is either expired or invalid.")
            #expect(try stub.get("/3/account?session_id=\(session)").status == 200)
            #expect(try stub.accountState()["sessions"] as? Int == 1)
        }
    }

    @Test func unknownTokensAndBadBodiesAreRefused() throws {
        try RunningStub.with { stub in
            let unknown = String(repeating: "ab", count: 20)
            #expect(try stub.send("POST", "/3/authentication/session/new", body: #"{"request_token":"\#(unknown)"}"#).statusAndCode == [401, 33])
            #expect(try stub.send("POST", "/3/authentication/session/new", body: "token").statusAndCode == [422, 5])
            #expect(try stub.control("POST", "/account/approve", body: #"{"request_token":"\#(unknown)"}"#).status == 400)
            #expect(try stub.send("GET", "/3/authentication/session/new").statusAndCode == [404, 34])
            let withoutKey = try RawHTTPClient.send(port: stub.port, target: "/3/authentication/token/new")
            #expect(withoutKey.statusAndCode == [401, 7])
        }
    }

    @Test func autoApproveLogsInWithoutTheUser() throws {
        try RunningStub.with({ $0.autoApprove = true }) { stub in
            let token = try stub.requestToken()
            let created = try stub.send("POST", "/3/authentication/session/new", body: #"{"request_token":"\#(token)"}"#)
            #expect(created.status == 200)
            #expect(isFortyHex(created.jsonObject?["session_id"] as? String))
        }
    }

    @Test func approvingAllApprovesEveryPendingToken() throws {
        try RunningStub.with { stub in
            let tokens = try [stub.requestToken(), stub.requestToken()]
            let approved = try stub.control("POST", "/account/approve", body: "{}")
            #expect(Set(approved.jsonObject?["approved"] as? [String] ?? []) == Set(tokens))
            for token in tokens {
                #expect(try stub.send("POST", "/3/authentication/session/new", body: #"{"request_token":"\#(token)"}"#).status == 200)
            }
            let third = try stub.requestToken()
            #expect(try stub.control("POST", "/account/approve", body: #"{"all":true}"#).jsonObject?["approved"] as? [String] == [third])
        }
    }

    @Test func anExpiredTokenIsInvalid() {
        let clock = Mutex(1_000_000)
        let account = StubAccount(now: { clock.withLock { $0 } })
        let (token, expiresAt) = account.newRequestToken()
        #expect(expiresAt == 1_003_600)
        clock.withLock { $0 = expiresAt }
        #expect(!account.approve(token: token))
        #expect(account.createSession(requestToken: token) == .invalidToken)
        let (fresh, _) = account.newRequestToken()
        #expect(account.createSession(requestToken: fresh) == .denied)
        #expect(account.approve(token: fresh))
        guard case .created(let session) = account.createSession(requestToken: fresh) else {
            Issue.record("an approved token opens no session")
            return
        }
        #expect(account.isValid(sessionID: session))
    }

    @Test func deletingASessionEndsIt() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            let body = #"{"session_id":"\#(session)"}"#
            let deleted = try stub.send("DELETE", "/3/authentication/session", body: body)
            #expect(deleted.status == 200)
            #expect(String(decoding: deleted.body, as: UTF8.self) == #"{"success":true}"#)
            #expect(try stub.get("/3/account?session_id=\(session)").statusAndCode == [401, 3])
            #expect(try stub.send("DELETE", "/3/authentication/session", body: body).statusAndCode == [401, 3])
        }
    }

    @Test func accountDetailsNeedASession() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            let details = try stub.get("/3/account?session_id=\(session)")
            #expect(details.status == 200)
            #expect(String(decoding: details.body, as: UTF8.self)
                == #"{"id":22011,"username":"stub-user","name":"","include_adult":false,"iso_639_1":"en","iso_3166_1":"US","avatar":{"tmdb":{"avatar_path":null}}}"#)
            #expect(try stub.get("/3/account/22011?session_id=\(session)").body == details.body)
            #expect(try stub.get("/3/account/1?session_id=\(session)").statusAndCode == [404, 34])
            for target in ["/3/account", "/3/account?session_id=" + String(repeating: "0", count: 40)] {
                let refused = try stub.get(target)
                #expect(refused.statusAndCode == [401, 3])
                #expect(refused.jsonObject?["status_message"] as? String
                    == "Authentication failed: You do not have permissions to access the service.")
            }
        }
    }

    @Test func aWatchlistOf45MoviesIsThreePagesInEitherOrder() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            let ids = stub.server.catalogue.movies.prefix(45).map(\.id).shuffled()
            let list = ids.map(String.init).joined(separator: ",")
            #expect(try stub.control("POST", "/account", body: #"{"watchlist":[\#(list)]}"#).status == 200)
            func page(_ number: Int, _ sort: String = "created_at.asc") throws -> [String: Any] {
                try #require(try stub.get("/3/account/22011/watchlist/movies?session_id=\(session)&page=\(number)&sort_by=\(sort)&language=de-DE").jsonObject)
            }
            func resultIDs(_ page: [String: Any]) -> [Int] { (page["results"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? [] }
            let first = try page(1)
            #expect(first["total_pages"] as? Int == 3)
            #expect(first["total_results"] as? Int == 45)
            #expect(first["page"] as? Int == 1)
            #expect(resultIDs(first) == Array(ids[0..<20]))
            #expect(resultIDs(try page(2)) == Array(ids[20..<40]))
            #expect(resultIDs(try page(3)) == Array(ids[40..<45]))
            #expect(resultIDs(try page(4)).isEmpty)
            #expect(resultIDs(try page(1, "created_at.desc")) == Array(ids.reversed()[0..<20]))
            #expect(resultIDs(try page(3, "created_at.desc")) == Array(ids.reversed()[40..<45]))
            let movie = try #require(stub.server.catalogue.movie(id: ids[0]))
            let result = try #require((first["results"] as? [[String: Any]])?.first)
            #expect(result["title"] as? String == movie.title)
            #expect(Set(result.keys) == ["adult", "backdrop_path", "genre_ids", "id", "original_language", "original_title", "overview",
                                         "popularity", "poster_path", "release_date", "title", "video", "vote_average", "vote_count"])
            for bad in ["0", "501", "x"] {
                #expect(try stub.get("/3/account/22011/watchlist/movies?session_id=\(session)&page=\(bad)").statusAndCode == [400, 22])
            }
            #expect(try stub.get("/3/account/7/watchlist/movies?session_id=\(session)").statusAndCode == [404, 34])
            #expect(try stub.get("/3/account/22011/watchlist/movies").statusAndCode == [401, 3])
        }
    }

    @Test func anEmptyListHasOnePageAndAnUnknownMovieIsListedPlainly() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            let empty = try stub.get("/3/account/22011/favorite/movies?session_id=\(session)")
            #expect(String(decoding: empty.body, as: UTF8.self) == #"{"page":1,"results":[],"total_pages":1,"total_results":0}"#)
            _ = try stub.control("POST", "/account", body: #"{"favorite":[987654321]}"#)
            let listed = try #require(try stub.get("/3/account/22011/favorite/movies?session_id=\(session)").jsonObject)
            let movie = try #require((listed["results"] as? [[String: Any]])?.first)
            #expect(movie["id"] as? Int == 987_654_321)
            #expect(movie["title"] as? String == "Movie 987654321")
            #expect(movie["poster_path"] is NSNull)
            #expect(movie["genre_ids"] as? [Int] == [])
        }
    }

    @Test func theRatedListCarriesEachRating() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            #expect(try stub.send("POST", "/3/movie/603/rating?session_id=\(session)", body: #"{"value":8.5}"#).status == 201)
            #expect(try stub.send("POST", "/3/movie/550/rating?session_id=\(session)", body: #"{"value":7}"#).status == 201)
            func rated(_ sort: String) throws -> [[String: Any]] {
                try #require(try stub.get("/3/account/22011/rated/movies?session_id=\(session)&sort_by=\(sort)").jsonObject?["results"] as? [[String: Any]])
            }
            let ascending = try rated("created_at.asc")
            #expect(ascending.compactMap { $0["id"] as? Int } == [603, 550])
            #expect(ascending.compactMap { $0["rating"] as? Double } == [8.5, 7])
            #expect(ascending.first?["title"] as? String == "The Matrix")
            #expect(try rated("created_at.desc").compactMap { $0["id"] as? Int } == [550, 603])
            let watchlist = try #require(try stub.get("/3/account/22011/watchlist/movies?session_id=\(session)").jsonObject)
            #expect(watchlist["total_results"] as? Int == 0)
        }
    }

    @Test func accountStatesSayWhatTheUserDidWithAMovie() throws {
        try RunningStub.with { stub in
            let session = try stub.login()
            _ = try stub.send("POST", "/3/account/22011/favorite?session_id=\(session)", body: #"{"media_type":"movie","media_id":603,"favorite":true}"#)
            _ = try stub.send("POST", "/3/movie/603/rating?session_id=\(session)", body: #"{"value":8.5}"#)
            _ = try stub.send("POST", "/3/account/22011/watchlist?session_id=\(session)", body: #"{"media_type":"movie","media_id":550,"watchlist":true}"#)
            let matrix = try stub.get("/3/movie/603/account_states?session_id=\(session)")
            #expect(matrix.status == 200)
            #expect(String(decoding: matrix.body, as: UTF8.self) == #"{"id":603,"favorite":true,"rated":{"value":8.5},"watchlist":false}"#)
            let fightClub = try stub.get("/3/movie/550/account_states?session_id=\(session)")
            #expect(String(decoding: fightClub.body, as: UTF8.self) == #"{"id":550,"favorite":false,"rated":false,"watchlist":true}"#)
            #expect(try stub.get("/3/movie/999999999/account_states?session_id=\(session)").statusAndCode == [404, 34])
            #expect(try stub.get("/3/movie/603/account_states").statusAndCode == [401, 3])
            #expect(try stub.send("POST", "/3/movie/603/account_states?session_id=\(session)").statusAndCode == [404, 34])
        }
    }
}
