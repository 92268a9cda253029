import MoviesDomain

/// An error as a storage adapter throws it, with a chosen fault (as `SQLiteError` with
/// `SQLITE_FULL` reports `.full`), for tests of the data layer without SQLite.
public struct FakeStorageFault: StorageFaultReporting, Sendable {
    public let storageFault: StorageFault
    public var storageDetail: String { "fake: \(storageFault.rawValue)" }

    /// Creates the error.
    public init(_ fault: StorageFault) { storageFault = fault }
}
