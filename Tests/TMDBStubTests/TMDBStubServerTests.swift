import Foundation
import MoviesTestSupport
import Testing
import TMDBStub

/// The TMDB endpoints of the main port, over real sockets.
@Suite(.blocksThreads) struct TMDBStubServerTests {
    @Test func searchPaginatesWithConsistentTotals() throws {
        try RunningStub.with { stub in
            let first = try #require(try stub.get("/3/search/movie?query=star&page=1").jsonObject)
            let second = try #require(try stub.get("/3/search/movie?query=star&page=2").jsonObject)
            let firstResults = try #require(first["results"] as? [[String: Any]])
            let secondResults = try #require(second["results"] as? [[String: Any]])
            let total = try #require(first["total_results"] as? Int)
            let pages = try #require(first["total_pages"] as? Int)
            #expect(firstResults.count == 20)
            #expect(pages == (total + 19) / 20 && pages >= 3)
            #expect(second["page"] as? Int == 2 && second["total_results"] as? Int == total)
            let firstIDs = Set(firstResults.compactMap { $0["id"] as? Int })
            #expect(firstIDs.isDisjoint(with: secondResults.compactMap { $0["id"] as? Int }))
            for key in ["adult", "backdrop_path", "genre_ids", "id", "original_language", "original_title", "overview",
                        "popularity", "poster_path", "release_date", "title", "video", "vote_average", "vote_count"] {
                #expect(firstResults[0].keys.contains(key), "missing \(key)")
            }
            let last = try #require(try stub.get("/3/search/movie?query=star&page=\(pages)").jsonObject)
            #expect((last["results"] as? [Any])?.count == total - (pages - 1) * 20)
            let past = try stub.get("/3/search/movie?query=star&page=\(pages + 1)")
            #expect(past.status == 200)
            #expect((past.jsonObject?["results"] as? [Any])?.isEmpty == true)
            #expect(past.jsonObject?["total_results"] as? Int == total)
        }
    }

    @Test func searchPageIsRealisticallySized() throws {
        try RunningStub.with { stub in
            let response = try stub.get("/3/search/movie?query=love")
            #expect(response.body.count > 10_000)
        }
    }

    @Test func searchErrorsAndEmptyResultsLookLikeTMDB() throws {
        try RunningStub.with { stub in
            let none = try stub.get("/3/search/movie?query=zzqqxx")
            #expect(String(decoding: none.body, as: UTF8.self) == #"{"page":1,"results":[],"total_pages":1,"total_results":0}"#)
            for page in ["0", "501", "abc"] {
                let bad = try stub.get("/3/search/movie?query=star&page=\(page)")
                #expect(bad.status == 400)
                #expect(bad.jsonObject?["status_code"] as? Int == 22)
            }
            for target in ["/3/search/movie", "/3/search/movie?query="] {
                let missing = try stub.get(target)
                #expect(missing.status == 422)
                #expect(missing.jsonObject?["errors"] as? [String] == ["query must be provided"])
            }
            let slash = try stub.get("/3/search/movie/?query=star")
            #expect(slash.status == 404 && slash.jsonObject?["status_code"] as? Int == 34)
        }
    }

    @Test func movieDetailsAndNotFoundCodes() throws {
        try RunningStub.with { stub in
            let matrix = try stub.get("/3/movie/603")
            #expect(matrix.status == 200)
            #expect(matrix.jsonObject?["title"] as? String == "The Matrix")
            #expect(matrix.jsonObject?["imdb_id"] as? String == "tt0133093")
            #expect((matrix.jsonObject?["genres"] as? [[String: Any]])?.first?["name"] != nil)
            let unknown = try stub.get("/3/movie/999999999")
            #expect(unknown.status == 404 && unknown.jsonObject?["status_code"] as? Int == 34)
            for id in ["0", "abc"] {
                let invalid = try stub.get("/3/movie/\(id)")
                #expect(invalid.status == 404 && invalid.jsonObject?["status_code"] as? Int == 6)
            }
        }
    }

    @Test func authAcceptsBearerOrAPIKeyAndRejectsOthers() throws {
        try RunningStub.with { stub in
            let bearer = try RawHTTPClient.send(port: stub.port, target: "/3/movie/550", headers: ["Authorization": "Bearer stub-token"])
            let key = try RawHTTPClient.send(port: stub.port, target: "/3/movie/550?api_key=stub-api-key")
            #expect(bearer.status == 200 && key.status == 200)
            let missing = try RawHTTPClient.send(port: stub.port, target: "/3/movie/550")
            let wrong = try RawHTTPClient.send(port: stub.port, target: "/3/movie/550?api_key=nope", headers: ["Authorization": "Bearer nope"])
            for response in [missing, wrong] {
                #expect(response.status == 401)
                #expect(response.jsonObject?["status_code"] as? Int == 7)
                #expect(response.jsonObject?["success"] as? Bool == false)
            }
        }
    }

    @Test func configurationPointsImagesAtTheStubAndImagesArePNGs() throws {
        try RunningStub.with { stub in
            let configuration = try #require(try stub.get("/3/configuration").jsonObject)
            let images = try #require(configuration["images"] as? [String: Any])
            #expect(images["secure_base_url"] as? String == "http://127.0.0.1:\(stub.port)/t/p/")
            #expect(images["poster_sizes"] as? [String] == ["w92", "w154", "w185", "w342", "w500", "w780", "original"])
            let poster = try #require(stub.server.catalogue.movie(id: 603)?.posterPath)
            let image = try RawHTTPClient.send(port: stub.port, target: "/t/p/w185\(poster)")
            #expect(image.status == 200 && image.headers["content-type"] == "image/png")
            #expect(Array(image.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            #expect(image.body[16..<20].reduce(0) { $0 << 8 | Int($1) } == 185)
            #expect(try RawHTTPClient.send(port: stub.port, target: "/t/p/w999\(poster)").status == 404)
            #expect(try RawHTTPClient.send(port: stub.port, target: "/t/p/w185/unknown.jpg").status == 404)
        }
    }

    @Test func etagRevalidatesToNotModified() throws {
        try RunningStub.with({ $0.maxAgeSeconds = 120 }) { stub in
            let first = try stub.get("/3/movie/27205")
            let etag = try #require(first.headers["etag"])
            #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
            #expect(first.headers["cache-control"] == "public, max-age=120")
            let again = try stub.get("/3/movie/27205", headers: ["If-None-Match": etag])
            #expect(again.status == 304 && again.body.isEmpty)
            let other = try stub.get("/3/movie/550", headers: ["If-None-Match": etag])
            #expect(other.status == 200)
        }
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        try RunningStub.with { stub in
            let fd = try RawHTTPClient.connect(port: stub.port, timeoutSeconds: ProcessDeadline.replySeconds)
            defer { close(fd) }
            let request = Array("GET /3/movie/603?api_key=stub-api-key HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            let twice = request + request
            _ = twice.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            for _ in 0..<50 where String(decoding: received, as: UTF8.self).components(separatedBy: "The Matrix\"").count < 5 {
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                received += chunk[0..<count]
            }
            #expect(String(decoding: received, as: UTF8.self).components(separatedBy: "HTTP/1.1 200 OK").count == 3)
        }
    }

    @Test func statsCountRequestsPerPath() throws {
        try RunningStub.with { stub in
            for _ in 0..<3 { _ = try stub.get("/3/search/movie?query=night") }
            _ = try stub.get("/3/movie/603")
            #expect(stub.server.requestCount(path: "/3/search/movie") == 3)
            #expect(stub.server.requestCount(path: "/3/movie/603") == 1)
            let stats = try #require(try stub.control("GET", "/stats").jsonObject)
            #expect(stats["total"] as? Int == 4)
            #expect((stats["requests"] as? [String: Any])?["/3/search/movie"] as? Int == 3)
            _ = try stub.control("POST", "/reset")
            #expect(stub.server.totalRequestCount == 0)
        }
    }
}

extension TMDBStubServerTests {
    @Test func oversizedHeadIsRejectedWith431() throws {
        try RunningStub.with({ $0.maxHeaderBytes = 1_024 }) { stub in
            let response = try stub.get("/3/configuration", headers: ["X-Padding": String(repeating: "a", count: 4_000)])
            #expect(response.status == 431)
        }
    }
}
