/// Why the local database could not do its work: the typed cause of a storage failure, reported in
/// `Freshness.storageFault`, `StorageHealth` and the `StorageFailure` error.
public enum StorageFault: String, Sendable, Hashable, Codable, CaseIterable {
    /// The disk (or the database's size limit) is full (`SQLITE_FULL`).
    case full
    /// Another process holds a lock on the database (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    case locked
    /// The file is damaged or not a database (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
    case corrupt
    /// The file cannot be read or written (I/O errors, permissions, read-only file system) or the
    /// database failed otherwise.
    case unavailable

    /// One sentence saying what is wrong and what to do, for the journal and for clients.
    public var advice: String {
        switch self {
        case .full: "the disk holding moviesd's database is full; free some space (or lower [Cache] MaxBytes=)"
        case .locked: "another process holds a lock on moviesd's database (an sqlite3 shell or a backup?); end it"
        case .corrupt: "moviesd's database is damaged; restart moviesd: it moves a damaged cache aside and rebuilds it, and says what to do about a damaged state database"
        case .unavailable: "moviesd's database cannot be read or written (I/O error or permissions); check the disk and the data directory"
        }
    }
}

/// An error that knows which `StorageFault` caused it (adapters' errors conform, so the data layer
/// can report the cause without importing the adapter).
public protocol StorageFaultReporting: Error {
    /// The typed cause.
    var storageFault: StorageFault { get }
    /// The storage engine's own short description of the failure, without paths or bound values
    /// (for example "database or disk is full").
    var storageDetail: String { get }
}
