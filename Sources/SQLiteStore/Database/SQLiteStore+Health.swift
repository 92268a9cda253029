import MoviesData

extension SQLiteStore {
    /// Reports every transaction's outcome to `monitor` as `database`'s: a success may clear a
    /// fault, a SQLite failure records one (logged once per change of cause).
    public func reportHealth(to monitor: StorageHealthMonitor, as database: StorageHealthMonitor.Database) {
        reportOutcomes { outcome in
            switch outcome {
            case .readSucceeded: monitor.recordSuccess(in: database, operation: .read)
            case .writeSucceeded: monitor.recordSuccess(in: database, operation: .write)
            case let .failed(error, write):
                monitor.recordFailure(error, during: write ? "writing" : "reading", in: database, operation: write ? .write : .read)
            }
        }
    }
}
