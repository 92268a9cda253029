import Foundation
import Networking
import Testing

@Suite struct CredentialTests {
    let secret = "sekrit-token-123456"
    let request = HTTPRequest(url: URL(string: "https://api.themoviedb.org/3/search/movie?query=x")!)

    @Test func bearerAddsAuthorizationHeaderAndLeavesURLAlone() {
        let authorized = Credential.bearer(secret).authorize(request)
        #expect(authorized.header("authorization") == "Bearer \(secret)")
        #expect(authorized.url == request.url)
    }

    @Test func apiKeyAppendsQueryItemAndSendsNoHeader() {
        let authorized = Credential.apiKey(secret).authorize(request)
        #expect(authorized.header("Authorization") == nil)
        #expect(authorized.url.absoluteString == "https://api.themoviedb.org/3/search/movie?query=x&api_key=\(secret)")
    }

    @Test func apiKeyOnURLWithoutQuery() {
        let bare = HTTPRequest(url: URL(string: "https://api.themoviedb.org/3/configuration")!)
        #expect(Credential.apiKey("k").authorize(bare).url.absoluteString == "https://api.themoviedb.org/3/configuration?api_key=k")
    }

    @Test(arguments: [Credential.bearer("sekrit-token-123456"), .apiKey("sekrit-token-123456")])
    func descriptionsNeverShowTheSecret(credential: Credential) {
        var dumped = ""
        dump(credential, to: &dumped)
        for text in [credential.description, credential.debugDescription, String(describing: credential), String(reflecting: credential), "\(credential)", dumped] {
            #expect(!text.contains(secret), "leaked in \(text)")
        }
    }

    @Test(arguments: [Credential.bearer("sekrit-token-123456"), .apiKey("sekrit-token-123456")])
    func requestDescriptionNeverShowsTheSecret(credential: Credential) {
        let authorized = credential.authorize(request)
        #expect(!authorized.description.contains(secret))
        #expect(authorized.description.hasPrefix("GET https://api.themoviedb.org/3/search/movie"))
    }

    @Test func scrubRemovesTheSecretWherever() {
        let credential = Credential.bearer(secret)
        let text = credential.scrub("server said: token \(secret) is bad")
        #expect(!text.contains(secret))
        #expect(text.contains("<redacted>"))
    }
}
