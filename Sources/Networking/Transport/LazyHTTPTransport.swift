import Synchronization

/// An `HTTPTransport` made on its first request: for a part of the daemon that may never send one
/// (the catalogue's downloads, weekly or on request), so that starting the daemon does not load
/// libcurl and start its thread for it.
public final class LazyHTTPTransport: HTTPTransport {
    private let make: @Sendable () -> any HTTPTransport
    private let made = Mutex<(any HTTPTransport)?>(nil)

    /// A transport that calls `make` once, on the first `send`.
    public init(_ make: @escaping @Sendable () -> any HTTPTransport) {
        self.make = make
    }

    /// Sends `request` on the transport, made now if this is the first request.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let transport = made.withLock { made in
            if let made { return made }
            let transport = make()
            made = transport
            return transport
        }
        return try await transport.send(request)
    }

    /// Whether the transport was made (a request was sent).
    public var isMade: Bool { made.withLock { $0 != nil } }
}
