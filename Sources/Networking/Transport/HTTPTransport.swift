/// Port: sends one HTTP request and returns its response, whatever the status.
///
/// Adapters: `CurlTransport` (libcurl's multi interface); tests use a scripted fake. Failures are `NetworkError`s.
public protocol HTTPTransport: Sendable {
    /// Sends `request` once (no retries) and returns the response, 2xx or not.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
