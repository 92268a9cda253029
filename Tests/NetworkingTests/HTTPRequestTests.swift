import Foundation
import Networking
import Testing

@Suite struct HTTPRequestTests {
    let secret = "sekrit-token-123456"

    @Test(arguments: [Credential.bearer("sekrit-token-123456"), .apiKey("sekrit-token-123456")])
    func noRenderingOfAnAuthorizedRequestShowsTheSecret(credential: Credential) {
        let request = credential.authorize(HTTPRequest(url: URL(string: "https://api.themoviedb.org/3/movie/1")!))
        var dumped = ""
        dump(request, to: &dumped)
        for text in [request.description, String(reflecting: request), "\(request)", dumped] {
            #expect(!text.contains(secret), "leaked in \(text)")
        }
        #expect(request.description == "GET https://api.themoviedb.org/3/movie/1" || request.description.hasSuffix("?api_key=<redacted>"))
    }

    @Test func headerLookupIsCaseInsensitive() {
        let request = HTTPRequest(url: URL(string: "https://h/")!, headers: ["If-None-Match": "\"v\""])
        #expect(request.header("if-none-match") == "\"v\"")
        #expect(request.method == "GET" && request.timeoutSeconds == 10)
    }
}
