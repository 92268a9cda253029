import SystemSupport
#if canImport(Glibc)
import Glibc
#endif
import CSQLite

extension SQLiteConnection {
    /// What a bounded integrity check found.
    public enum QuickCheckResult: Sendable, Hashable {
        /// No problem found in the whole file.
        case ok
        /// SQLite's first problems (at most the number asked for).
        case problems([String])
        /// The time limit ran out before the check finished; nothing wrong was found until then.
        case incomplete
    }

    /// `PRAGMA quick_check(maxProblems)`, interrupted after `timeLimit`.
    ///
    /// quick_check "does most of the checking of PRAGMA integrity_check but runs much faster" (it
    /// skips index consistency), reading every page once: its cost grows with the file, so a
    /// progress handler (`sqlite3_progress_handler`: "If the progress callback returns non-zero, the
    /// operation is interrupted") stops it at the time limit. Damage SQLite meets before the check
    /// can report a row (a bad header, a broken schema page) is thrown as `SQLiteError`.
    public func quickCheck(maxProblems: Int = 10, timeLimit: Duration) throws -> QuickCheckResult {
        let handle = try requireHandle()
        let deadline = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        defer { deadline.deallocate() }
        let (seconds, attoseconds) = max(.zero, timeLimit).components
        deadline.pointee = MonotonicClock.now() &+ UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(clamping: attoseconds / 1_000_000_000)
        // Every 1,000 virtual-machine instructions: a few microseconds.
        sqlite3_progress_handler(handle, 1000, { context in
            guard let context else { return 0 }
            return MonotonicClock.now() >= context.assumingMemoryBound(to: UInt64.self).pointee ? 1 : 0
        }, deadline)
        defer { sqlite3_progress_handler(handle, 0, nil, nil) }
        do {
            let statement = try prepare("PRAGMA quick_check(\(max(1, maxProblems)))")
            var lines: [String] = []
            while try statement.step() { lines.append(statement.text(at: 0) ?? "") }
            return lines == ["ok"] ? .ok : .problems(lines)
        } catch let error as SQLiteError where error.primaryResultCode == SQLITE_INTERRUPT {
            return .incomplete
        }
    }
}
