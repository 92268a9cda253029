/// Every owner's TMDB account (`AccountRepository`): the system's and each local user's. Adapter:
/// `AccountDirectory` (MoviesData).
public protocol AccountRepositories: Sendable {
    /// `owner`'s account (made on first use: signed out, with an empty outbox).
    func account(of owner: Owner) async -> any AccountRepository
}
