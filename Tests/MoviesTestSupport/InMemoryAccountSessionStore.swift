import MoviesData
import Synchronization

/// `AccountSessionStore` in memory, for tests.
public final class InMemoryAccountSessionStore: AccountSessionStore, Sendable {
    private let session: Mutex<AccountSession?>

    /// A store holding `session`.
    public init(_ session: AccountSession? = nil) {
        self.session = Mutex(session)
    }

    /// The session held.
    public var current: AccountSession? { session.withLock { $0 } }

    public func load() throws -> AccountSession? { session.withLock { $0 } }
    public func save(_ new: AccountSession) throws { session.withLock { $0 = new } }
    public func delete() throws { session.withLock { $0 = nil } }
}
