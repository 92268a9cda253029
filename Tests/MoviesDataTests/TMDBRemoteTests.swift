import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Networking
import Testing

@Suite struct TMDBRemoteTests {
    static let token = "sekrit-token-123456"
    static let searchBody = #"{"page":1,"results":[{"id":603,"title":"The Matrix"}],"total_pages":1,"total_results":1}"#
    static let movieBody = #"{"id":550,"title":"Fight Club","homepage":"","release_date":"1999-10-15"}"#
    static let configurationBody = #"{"images":{"secure_base_url":"https://image.tmdb.org/t/p/","poster_sizes":["w92","original"]}}"#

    let clock = TestClock()

    func remote(_ transport: FakeHTTPTransport, credential: Credential = .bearer(token), deadline: Double = 15) -> TMDBRemote {
        let configuration = TMDBRemoteConfiguration(
            credential: credential, deadlineSeconds: deadline,
            retryPolicy: RetryPolicy(random: { 0 })
        )
        return TMDBRemote(configuration: configuration, transport: transport, timeSource: clock.timeSource)
    }

    func error(from transport: FakeHTTPTransport, _ request: RemoteRequest = .movie(id: 550, language: nil), credential: Credential = .bearer(token), deadline: Double = 15) async -> MoviesError? {
        do {
            _ = try await remote(transport, credential: credential, deadline: deadline).fetch(request, etag: nil)
            return nil
        } catch {
            return error as? MoviesError
        }
    }

    // MARK: requests

    @Test func configurationDefaultsFollowTheDesign() {
        let configuration = TMDBRemoteConfiguration(credential: .bearer("t"))
        #expect(configuration.apiBaseURL.absoluteString == "https://api.themoviedb.org/3/")
        #expect(configuration.requestTimeoutSeconds == 10 && configuration.deadlineSeconds == 15)
        #expect(configuration.requestsPerSecond == 35 && configuration.retryPolicy.maxAttempts == 3)
    }

    @Test func searchWithBearerToken() async throws {
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(200, Self.searchBody)])
        let response = try await remote(transport).fetch(.search(query: "tom & jerry", page: 2, language: "de-DE"), etag: nil)
        #expect(response.httpStatus == 200 && response.body == Data(Self.searchBody.utf8))
        let sent = try #require(transport.requests.first)
        #expect(sent.method == "GET")
        #expect(sent.url.absoluteString == "https://api.themoviedb.org/3/search/movie?query=tom%20%26%20jerry&page=2&language=de-DE&include_adult=false")
        #expect(sent.header("Authorization") == "Bearer \(Self.token)")
        #expect(sent.header("If-None-Match") == nil)
    }

    @Test func searchSendsRegionAndYear() async throws {
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(200, Self.searchBody)])
        _ = try await remote(transport).fetch(.search(query: "matrix", page: 1, language: nil, region: "GB", year: 1999), etag: nil)
        let sent = try #require(transport.requests.first)
        #expect(sent.url.absoluteString == "https://api.themoviedb.org/3/search/movie?query=matrix&page=1&region=GB&year=1999&include_adult=false")
    }

    @Test func movieAndConfigurationWithApiKey() async throws {
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(200, Self.movieBody), FakeHTTPTransport.json(200, Self.configurationBody)])
        let remote = remote(transport, credential: .apiKey(Self.token))
        _ = try await remote.fetch(.movie(id: 550, language: nil), etag: nil)
        _ = try await remote.fetch(.configuration, etag: nil)
        let urls = transport.requests.map(\.url.absoluteString)
        #expect(urls == [
            "https://api.themoviedb.org/3/movie/550?api_key=\(Self.token)",
            "https://api.themoviedb.org/3/configuration?api_key=\(Self.token)",
        ])
        #expect(transport.requests.allSatisfy { $0.header("Authorization") == nil })
    }

    @Test(arguments: [Credential.bearer(token), .apiKey(token)])
    func imagesGoToTheImageServerWithoutCredential(credential: Credential) async throws {
        let transport = FakeHTTPTransport([.respond(HTTPResponse(status: 200, headers: ["Content-Type": "image/jpeg"], body: Data([0xFF, 0xD8])))])
        let response = try await remote(transport, credential: credential).fetch(.image(baseURL: "https://image.tmdb.org/t/p/", size: "w92", path: "/abc.jpg"), etag: nil)
        #expect(response.contentType == "image/jpeg" && response.body == Data([0xFF, 0xD8]))
        let sent = try #require(transport.requests.first)
        #expect(sent.url.absoluteString == "https://image.tmdb.org/t/p/w92/abc.jpg")
        #expect(sent.header("Authorization") == nil)
        #expect(!sent.url.absoluteString.contains(Self.token))
    }

    @Test func etagIsSentAndNotModifiedComesBackAs304() async throws {
        let transport = FakeHTTPTransport([.respond(HTTPResponse(status: 304, headers: ["ETag": "W/\"v1\"", "cache-control": "max-age=60"]))])
        let response = try await remote(transport).fetch(.movie(id: 550, language: "en-US"), etag: "W/\"v1\"")
        #expect(response.isNotModified && response.body.isEmpty)
        #expect(response.etag == "W/\"v1\"" && response.maxAge == 60)
        #expect(transport.requests.first?.header("if-none-match") == "W/\"v1\"")
        #expect(transport.requests.first?.url.absoluteString == "https://api.themoviedb.org/3/movie/550?language=en-US")
    }

    @Test func aSharedCachesHeadersAreRead() async throws {
        let headers = ["Age": "120", "X-Cache-Status": "HIT", "Via": "1.1 tmdb-cache"]
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(200, Self.configurationBody, headers: headers)])
        let response = try await remote(transport).fetch(.configuration, etag: nil)
        #expect(response.age == 120)
        #expect(response.cacheStatus == "HIT")
        #expect(response.via == "1.1 tmdb-cache")
        let other = FakeHTTPTransport([FakeHTTPTransport.json(200, Self.configurationBody, headers: ["X-Cache": "MISS from squid", "Age": "-4"])])
        let missed = try await remote(other).fetch(.configuration, etag: nil)
        #expect(missed.cacheStatus == "MISS")
        #expect(missed.age == nil)
    }

    @Test func cacheHeadersAreParsed() async throws {
        let headers = ["etag": "\"abc\"", "Last-Modified": "Sun, 22 Nov 2026 03:00:00 GMT", "Cache-Control": "public, max-age=20463"]
        let transport = FakeHTTPTransport([FakeHTTPTransport.json(200, Self.configurationBody, headers: headers)])
        let response = try await remote(transport).fetch(.configuration, etag: nil)
        #expect(response.etag == "\"abc\"")
        #expect(response.lastModified == "Sun, 22 Nov 2026 03:00:00 GMT")
        #expect(response.contentType == "application/json;charset=utf-8")
        #expect(response.maxAge == 20463)
    }

    @Test func imagePathsAreBuiltWithoutDoubleOrTrailingSlashes() async throws {
        let transport = FakeHTTPTransport([.respond(HTTPResponse(status: 200, body: Data([1])))])
        _ = try await remote(transport).fetch(.image(baseURL: "https://image.tmdb.org/t/p", size: "w500", path: "x.png"), etag: nil)
        #expect(transport.requests.first?.url.absoluteString == "https://image.tmdb.org/t/p/w500/x.png")
        let invalid = await error(from: FakeHTTPTransport(), .image(baseURL: "not a url", size: "w92", path: "/a.jpg"))
        #expect(invalid?.code == .invalidArgument)
    }
}
