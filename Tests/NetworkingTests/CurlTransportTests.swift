import Foundation
import Glibc
import Networking
import MoviesTestSupport
import Testing

@Suite struct CurlTransportTests {
    static func reply(status: String, headers: [String] = [], body: String = "") -> String {
        (["HTTP/1.1 \(status)", "Content-Length: \(body.utf8.count)", "Connection: close"] + headers)
            .joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    @Test func returnsStatusHeadersAndBodyAndSendsHeaders() async throws {
        let server = try LocalHTTPServer { _ in
            Self.reply(status: "200 OK", headers: ["ETag: \"v2\"", "Content-Type: application/json"], body: #"{"ok":true}"#)
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let request = HTTPRequest(url: server.url("3/movie/1"), headers: ["If-None-Match": "\"v1\"", "Authorization": "Bearer abc"], timeoutSeconds: ProcessDeadline.seconds)
        let response = try await transport.send(request)
        #expect(response.status == 200)
        #expect(response.header("etag") == "\"v2\"")
        #expect(response.body == Data(#"{"ok":true}"#.utf8))
        let head = try #require(server.requests.first)
        #expect(head.hasPrefix("GET /3/movie/1 HTTP/1.1"))
        #expect(head.lowercased().contains("if-none-match: \"v1\""))
        #expect(head.lowercased().contains("authorization: bearer abc"))
    }

    @Test func headerValuesAreTrimmedAndRepeatedHeadersJoined() async throws {
        let server = try LocalHTTPServer { _ in
            Self.reply(status: "200 OK", headers: ["X-Padded: \t padded value \t", "Vary: Accept", "Vary:Origin", "X-Empty:", "X-Title: välue "], body: "{}")
        }
        defer { server.stop() }
        let response = try await CurlTransport().send(HTTPRequest(url: server.url("3/configuration"), timeoutSeconds: ProcessDeadline.seconds))
        #expect(response.header("x-padded") == "padded value")
        #expect(response.header("Vary") == "Accept, Origin")
        #expect(response.header("X-Empty") == "")
        #expect(response.header("x-title") == "välue")
    }

    @Test func nonSuccessStatusesAreResponsesNotErrors() async throws {
        let server = try LocalHTTPServer { _ in Self.reply(status: "503 Service Unavailable", headers: ["Retry-After: 4"], body: "busy") }
        defer { server.stop() }
        let response = try await CurlTransport().send(HTTPRequest(url: server.url("x"), timeoutSeconds: ProcessDeadline.seconds))
        #expect(response.status == 503 && response.retryAfterSeconds == 4)
    }

    @Test func notModifiedReachesTheCallerAsIs() async throws {
        let server = try LocalHTTPServer { _ in "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nConnection: close\r\n\r\n" }
        defer { server.stop() }
        let request = HTTPRequest(url: server.url("3/configuration"), headers: ["If-None-Match": "\"v1\""], timeoutSeconds: ProcessDeadline.seconds)
        let response = try await CurlTransport().send(request)
        #expect(response.status == 304 && response.body.isEmpty)
        #expect(response.header("ETag") == "\"v1\"")
    }

    @Test func subSecondTimeoutIsEnforcedByLibcurlsTimer() async throws {
        let server = try LocalHTTPServer { _ in nil }
        defer { server.stop() }
        await #expect(throws: NetworkError.timedOut) {
            try await CurlTransport().send(HTTPRequest(url: server.url("slow"), timeoutSeconds: 0.3))
        }
    }

    @Test func refusedConnectionIsRefused() async throws {
        // A port bound but never listened on, and kept bound for the whole test: connections are
        // refused, and no other test's server can be given the port (a stopped server's could).
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socketDescriptor >= 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, length) == 0 && getsockname(socketDescriptor, $0, &length) == 0 }
        }
        try #require(bound)
        let url = try #require(URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/x"))
        await #expect(throws: NetworkError.connectionRefused) {
            try await CurlTransport().send(HTTPRequest(url: url, timeoutSeconds: ProcessDeadline.seconds))
        }
    }

    @Test func tcpResetIsConnectionReset() async throws {
        let server = try LocalHTTPServer { _ in LocalHTTPServer.resetConnection }
        defer { server.stop() }
        await #expect(throws: NetworkError.connectionReset) {
            try await CurlTransport().send(HTTPRequest(url: server.url("x"), timeoutSeconds: ProcessDeadline.seconds))
        }
    }

    @Test func bodyShorterThanContentLengthIsShortBody() async throws {
        let server = try LocalHTTPServer { _ in "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n0123456789" }
        defer { server.stop() }
        await #expect(throws: NetworkError.shortBody) {
            try await CurlTransport().send(HTTPRequest(url: server.url("x"), timeoutSeconds: ProcessDeadline.seconds))
        }
    }

    @Test func unknownHostIsDNSFailure() async throws {
        await #expect(throws: NetworkError.dnsFailure) {
            try await CurlTransport().send(HTTPRequest(url: URL(string: "http://no-such-host.invalid/x")!, timeoutSeconds: ProcessDeadline.seconds))
        }
    }

    @Test func aServerNotSpeakingTLSIsATLSFailure() async throws {
        let server = try LocalHTTPServer(readsRequest: false) { _ in "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" }
        defer { server.stop() }
        let url = try #require(URL(string: "https://127.0.0.1:\(server.port)/x"))
        await #expect(throws: NetworkError.tlsFailure) {
            try await CurlTransport().send(HTTPRequest(url: url, timeoutSeconds: ProcessDeadline.seconds))
        }
    }

    @Test func postSendsTheBodyAndOtherMethodsTheirVerb() async throws {
        let server = try LocalHTTPServer { _ in Self.reply(status: "201 Created", body: "{}") }
        defer { server.stop() }
        let transport = CurlTransport()
        let body = Data(#"{"media_type":"movie","media_id":603}"#.utf8)
        let post = HTTPRequest(method: "POST", url: server.url("3/account/1/watchlist"), headers: ["Content-Type": "application/json"], timeoutSeconds: ProcessDeadline.seconds, body: body)
        #expect(try await transport.send(post).status == 201)
        let delete = HTTPRequest(method: "DELETE", url: server.url("3/movie/603/rating"), timeoutSeconds: ProcessDeadline.seconds)
        #expect(try await transport.send(delete).status == 201)
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].hasPrefix("POST /3/account/1/watchlist HTTP/1.1"))
        #expect(requests[0].lowercased().contains("content-length: \(body.count)"))
        #expect(requests[0].lowercased().contains("content-type: application/json"))
        #expect(!requests[0].lowercased().contains("expect:"))
        #expect(requests[1].hasPrefix("DELETE /3/movie/603/rating HTTP/1.1"))
    }

    @Test func aTransportServesManyRequestsOneAfterAnother() async throws {
        let server = try LocalHTTPServer { _ in Self.reply(status: "200 OK", body: "ok") }
        defer { server.stop() }
        let transport = CurlTransport()
        for index in 0..<20 {
            let response = try await transport.send(HTTPRequest(url: server.url("n/\(index)"), timeoutSeconds: ProcessDeadline.seconds))
            #expect(response.body == Data("ok".utf8))
        }
    }

    @Test func cancellingTheCallerCancelsTheTask() async throws {
        let server = try LocalHTTPServer { _ in nil }
        defer { server.stop() }
        let transport = CurlTransport()
        let call = Task { try await transport.send(HTTPRequest(url: server.url("slow"), timeoutSeconds: 30)) }
        for _ in 0..<500 where server.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        call.cancel()
        await #expect(throws: NetworkError.cancelled) { try await call.value }
    }
}
