import Foundation
import MoviesTestSupport
import Networking
import Synchronization
import Testing

/// The lazy transport is made on its first request, once, and sends through it.
@Suite struct LazyHTTPTransportTests {
    @Test func madeOnTheFirstRequestOnlyAndOnce() async throws {
        let made = Mutex(0)
        let fake = FakeHTTPTransport([.respond(HTTPResponse(status: 200, body: Data("a".utf8))), .respond(HTTPResponse(status: 404))])
        let lazy = LazyHTTPTransport {
            made.withLock { $0 += 1 }
            return fake
        }
        #expect(made.withLock { $0 } == 0 && !lazy.isMade)
        let url = try #require(URL(string: "http://127.0.0.1:1/a"))
        #expect(try await lazy.send(HTTPRequest(url: url)).status == 200)
        #expect(try await lazy.send(HTTPRequest(url: url)).status == 404)
        #expect(made.withLock { $0 } == 1 && lazy.isMade)
        #expect(fake.requestCount == 2)
    }
}
