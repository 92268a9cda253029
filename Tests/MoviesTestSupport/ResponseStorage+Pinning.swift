import MoviesData
import MoviesDomain

extension ResponseStorage {
    /// Pins `keys` for the system, without a budget (to set up a test, as a system watchlist's
    /// refresh would).
    public func pinForSystem(_ keys: [String]) async throws {
        _ = try await pin(keys, for: .system, within: .max, replacing: false)
    }
}
