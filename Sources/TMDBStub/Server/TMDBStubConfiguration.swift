/// Everything the stub server needs at start.
public struct TMDBStubConfiguration: Sendable {
    /// The IPv4 address to listen on.
    public var host = "127.0.0.1"
    /// The main (TMDB) port; 0 = kernel-assigned.
    public var port = 0
    /// The control port; 0 = kernel-assigned.
    public var controlPort = 0
    /// The bearer token accepted in `Authorization: Bearer …`.
    public var token = "stub-token"
    /// The key accepted in the `api_key` query parameter.
    public var apiKey = "stub-api-key"
    /// The catalogue seed.
    public var seed: UInt64 = 20_260_101
    /// The number of generated movies (the well-known ones come on top).
    public var movieCount = 2_000
    /// The titles in the synthetic daily ID export (`/p/exports/…`).
    public var exportSize = 1_100_000
    /// `Cache-Control: public, max-age=N` on every JSON and image answer.
    public var maxAgeSeconds = 3_600
    /// The most connections served at once; more are closed at once.
    public var maxConnections = 256
    /// The largest request head accepted (bigger → 431).
    public var maxHeaderBytes = 16_384
    /// Seconds an idle keep-alive connection is kept open.
    public var idleTimeoutSeconds = 30
    /// The faults injected from the start.
    public var faults = StubFaults()
    /// Recorded answers served instead of the catalogue's for their routes (first match wins).
    public var recordings: [StubRecording] = []
    /// When true every request token is approved as it is issued, so a client logs in without a
    /// user (or `POST /account/approve` on the control port).
    public var autoApprove = false

    /// The defaults: 127.0.0.1, kernel-assigned ports, `stub-token` / `stub-api-key`, 2,000 movies.
    public init() {}
}
