/// Port: where the signed-in session is kept. Adapter: `FileAccountSessionStore` (a 0600 file in the
/// daemon's state directory, or systemd's `LoadCredential=tmdb-session`); tests keep it in memory.
public protocol AccountSessionStore: Sendable {
    /// The session kept, if any. A session from a credential may lack the account id (0): the
    /// caller asks TMDB for it.
    func load() throws -> AccountSession?
    /// Keeps `session` (replacing any other).
    func save(_ session: AccountSession) throws
    /// Forgets the kept session. Throws when it cannot be forgotten (a read-only credential).
    func delete() throws
}
