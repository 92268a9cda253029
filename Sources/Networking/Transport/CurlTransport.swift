import CCurl
import Foundation

/// `HTTPTransport` over libcurl's multi interface, driven by a thread of its own
/// (``CurlMultiLoop``).
///
/// Why not URLSession: on Linux (swift-corelibs-foundation) it drives libcurl through Dispatch
/// sources, and once a request is sent and libcurl asks for the socket's readability only, the
/// write source it registered while sending is never cancelled: the socket stays writable, the
/// source fires again and again and each firing calls `curl_multi_socket_action`, so a request
/// waiting for its answer spins a Dispatch worker until the answer or the timeout (measured:
/// about 12 s of CPU per request to a TMDB that hangs). Here the loop sleeps in
/// `curl_multi_poll`, and libcurl's own timer enforces the request timeout to the millisecond.
///
/// libcurl is `libcurl.so.4`, opened at run time (the library FoundationNetworking links); the
/// connection cache of the multi handle keeps connections alive between requests.
public final class CurlTransport: HTTPTransport {
    private let loop: CurlMultiLoop?
    private let unavailable: String

    /// Creates a transport with its own multi handle and thread. If libcurl cannot be loaded,
    /// every request fails with a `NetworkError.transport` saying why.
    public init() {
        if ccurl_load() == 0, let loop = CurlMultiLoop() {
            self.loop = loop
            unavailable = ""
        } else {
            loop = nil
            let reason = String(cString: ccurl_load_error())
            unavailable = reason.isEmpty ? "libcurl could not start a transfer loop." : reason + "."
        }
    }

    deinit {
        loop?.stop()
    }

    /// Sends `request` once; times out after `request.timeoutSeconds` (libcurl's timer) and maps
    /// libcurl's failures to `NetworkError`.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let loop else { throw NetworkError.transport(message: unavailable) }
        let gate = ResumeOnce<HTTPResponse>()
        let exchange = try CurlExchange(request, gate: gate)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                gate.install(continuation)
                loop.add(exchange)
            }
        } onCancel: {
            gate.resume(.failure(NetworkError.cancelled))
            loop.remove(exchange)
        }
    }
}
