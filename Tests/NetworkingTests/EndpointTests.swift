import Foundation
import Networking
import Testing

@Suite struct EndpointTests {
    let base = URL(string: "https://api.themoviedb.org/3/")!

    @Test(arguments: ["search/movie", "/search/movie", "search/movie/", "/search/movie/"])
    func pathHasExactlyOneSlashAndNoTrailingSlash(path: String) throws {
        let url = try Endpoint(path: path).url(relativeTo: base)
        #expect(url.absoluteString == "https://api.themoviedb.org/3/search/movie")
    }

    @Test func baseWithoutTrailingSlashKeepsItsLastComponent() throws {
        let url = try Endpoint(path: "configuration").url(relativeTo: URL(string: "http://127.0.0.1:8080/3")!)
        #expect(url.absoluteString == "http://127.0.0.1:8080/3/configuration")
    }

    @Test func queryItemsKeepOrderAndAreStrictlyEncoded() throws {
        let endpoint = Endpoint(path: "search/movie", queryItems: [.init("query", "tom & jerry+1=é"), .init("page", "2")])
        let url = try endpoint.url(relativeTo: base)
        #expect(url.absoluteString == "https://api.themoviedb.org/3/search/movie?query=tom%20%26%20jerry%2B1%3D%C3%A9&page=2")
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        #expect(components?.queryItems?.first?.value == "tom & jerry+1=é")
    }

    /// The byte-level encoder writes what Foundation's `addingPercentEncoding` does with RFC 3986's
    /// unreserved set, for ASCII, every byte value's escape, and non-Latin text.
    @Test(arguments: ["", "plain-Text_1.0~", " !\"#$%&'()*+,/:;<=>?@[\\]^`{|}", "\u{7F}\u{01}\t\n", "千と千尋の神隠し", "Amélie 🎬", "Ан%на"])
    func percentEncodingMatchesFoundation(text: String) {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        #expect(QueryEncoding.percentEncode(text) == text.addingPercentEncoding(withAllowedCharacters: unreserved))
    }

    @Test func absoluteURLIgnoresBaseAndNeedsNoCredential() throws {
        let image = URL(string: "https://image.tmdb.org/t/p/w92/abc.jpg")!
        let endpoint = Endpoint(url: image)
        #expect(try endpoint.url(relativeTo: base) == image)
        #expect(endpoint.requiresCredential == false)
        #expect(Endpoint(path: "movie/1").requiresCredential)
    }
}
