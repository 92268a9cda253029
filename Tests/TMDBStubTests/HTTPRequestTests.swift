import Testing
import TMDBStub

struct HTTPRequestTests {
    private func request(_ target: String, version: String = "HTTP/1.1", headers: [String: String] = [:]) -> HTTPRequest {
        HTTPRequest(method: "GET", target: target, version: version, headers: headers, body: [])
    }

    @Test func queryIsPercentDecodedWithPlusAsSpace() {
        let parsed = request("/3/search/movie?query=R%C3%AAve+de+nuit&page=2&page=3&flag")
        #expect(parsed.path == "/3/search/movie")
        #expect(parsed.query["query"] == "Rêve de nuit")
        #expect(parsed.query["page"] == "2")
        #expect(parsed.query["flag"] == "")
    }

    @Test func keepAliveFollowsVersionAndConnectionHeader() {
        #expect(request("/").wantsKeepAlive)
        #expect(!request("/", headers: ["connection": "close"]).wantsKeepAlive)
        #expect(!request("/", version: "HTTP/1.0").wantsKeepAlive)
        #expect(request("/", version: "HTTP/1.0", headers: ["connection": "keep-alive"]).wantsKeepAlive)
    }
}
