import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Networking
import Testing

/// `URLSessionTransport.networkError(from:)`: each URLSession failure becomes the error that says
/// what happened, and no message is the bare "URL error N" or "not connected" for a reset.
@Suite struct URLErrorMappingTests {
    static func urlError(_ code: URLError.Code, _ text: String = "") -> URLError {
        URLError(code, userInfo: text.isEmpty ? [:] : [NSLocalizedDescriptionKey: text])
    }

    @Test(arguments: [
        (URLError.Code.networkConnectionLost, "Recv failure: Connection reset by peer", NetworkError.connectionReset),
        (.unknown, "transfer closed with 90 bytes remaining to read", .shortBody),
        (.cannotConnectToHost, "Failed to connect", .connectionRefused),
        (.cannotFindHost, "Could not resolve host: x", .dnsFailure),
        (.dnsLookupFailed, "", .dnsFailure),
        (.secureConnectionFailed, "", .tlsFailure),
        (.serverCertificateUntrusted, "", .tlsFailure),
        (.timedOut, "", .timedOut),
        (.notConnectedToInternet, "", .notConnected),
        (.badServerResponse, "Empty reply from server", .invalidResponse),
    ])
    func mapsEachFailure(code: URLError.Code, text: String, expected: NetworkError) {
        #expect(URLSessionTransport.networkError(from: Self.urlError(code, text)) == expected)
    }

    @Test func descriptionsSayWhatHappened() {
        #expect(NetworkError.connectionReset.description.contains("reset"))
        #expect(NetworkError.shortBody.description.contains("short body"))
        #expect(NetworkError.connectionRefused.description.contains("refused"))
        #expect(NetworkError.dnsFailure.description.contains("DNS"))
        #expect(NetworkError.tlsFailure.description.contains("TLS"))
    }
}
