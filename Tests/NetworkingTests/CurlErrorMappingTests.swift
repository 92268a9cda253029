import Glibc
@testable import Networking
import Testing

/// `CurlTransport.networkError(code:osErrno:detail:)`: each libcurl failure becomes the error that
/// says what happened, and no message is a bare "curl error N" for a reset.
@Suite struct CurlErrorMappingTests {
    @Test(arguments: [
        (Int32(56), ECONNRESET, "Recv failure: Connection reset by peer", NetworkError.connectionReset),
        (55, EPIPE, "Send failure: Broken pipe", .connectionReset),
        (18, 0, "transfer closed with 90 bytes remaining to read", .shortBody),
        (7, ECONNREFUSED, "Failed to connect to 127.0.0.1 port 1: Connection refused", .connectionRefused),
        (7, ENETUNREACH, "Failed to connect: Network is unreachable", .notConnected),
        (6, 0, "Could not resolve host: x", .dnsFailure),
        (35, 0, "SSL connect error", .tlsFailure),
        (60, 0, "SSL certificate problem", .tlsFailure),
        (28, 0, "Operation timed out after 300 milliseconds with 0 bytes received", .timedOut),
        (52, 0, "Empty reply from server", .invalidResponse),
        (3, 0, "URL using bad/illegal format", .invalidURL),
    ])
    func mapsEachFailure(code: Int32, osErrno: Int32, text: String, expected: NetworkError) {
        #expect(CurlTransport.networkError(code: code, osErrno: osErrno, detail: text) == expected)
    }

    @Test func anyOtherFailureSaysItsCodeAndNoCredential() {
        let error = CurlTransport.networkError(code: 47, osErrno: 0, detail: "Maximum (50) redirects followed to /x?api_key=secret123")
        guard case .transport(let message) = error else {
            Issue.record("expected a transport error, got \(error)")
            return
        }
        #expect(message.contains("curl error 47"))
        #expect(!error.description.contains("secret123"))
    }

    @Test func descriptionsSayWhatHappened() {
        #expect(NetworkError.connectionReset.description.contains("reset"))
        #expect(NetworkError.shortBody.description.contains("short body"))
        #expect(NetworkError.connectionRefused.description.contains("refused"))
        #expect(NetworkError.dnsFailure.description.contains("DNS"))
        #expect(NetworkError.tlsFailure.description.contains("TLS"))
    }
}
