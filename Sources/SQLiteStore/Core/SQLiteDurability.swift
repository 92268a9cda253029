/// How far a commit has reached the disk when it returns: SQLite's `PRAGMA synchronous` in WAL mode
/// (<https://www.sqlite.org/pragma.html#pragma_synchronous>).
public enum SQLiteDurability: Sendable, Hashable {
    /// `synchronous=FULL`: "the WAL file is synchronized before each transaction commit", so a
    /// transaction that committed survives a power cut. For what users made (the state database:
    /// watchlists, the account outbox, recent queries), which is acknowledged only once on disk.
    case durable
    /// `synchronous=NORMAL`: "WAL mode is safe from corruption with synchronous=NORMAL", but "a
    /// transaction committed in WAL mode with synchronous=NORMAL might roll back following a power
    /// loss or system crash" (not a process crash). For what TMDB can give again (the cache
    /// database), where a commit then costs no `fsync`.
    case consistent

    /// The pragma that sets it on a connection.
    var pragma: String {
        switch self {
        case .durable: "PRAGMA synchronous = FULL"
        case .consistent: "PRAGMA synchronous = NORMAL"
        }
    }
}
