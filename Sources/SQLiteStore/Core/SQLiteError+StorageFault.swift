import CSQLite
import MoviesDomain

extension SQLiteError: StorageFaultReporting {
    /// The typed cause, from the primary result code (<https://www.sqlite.org/rescode.html>):
    /// `SQLITE_FULL` is `.full`; `SQLITE_BUSY` and `SQLITE_LOCKED` are `.locked`; `SQLITE_CORRUPT` and
    /// `SQLITE_NOTADB` are `.corrupt`; I/O, permission, read-only and everything else `.unavailable`.
    public var storageFault: StorageFault {
        if reason == .notADatabase { return .corrupt }
        switch primaryResultCode {
        case SQLITE_FULL: return .full
        case SQLITE_BUSY, SQLITE_LOCKED: return .locked
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt
        default: return .unavailable
        }
    }

    /// SQLite's description of the result code (`sqlite3_errstr`: "English-language text that
    /// describes the result code"), which never holds a path or a bound value.
    public var storageDetail: String {
        guard reason == .sqlite || reason == .notADatabase, let text = sqlite3_errstr(resultCode) else { return reason.rawValue }
        return "SQLite: " + String(cString: text)
    }
}
