import MoviesDomain

/// What an account call's failure means for the outbox, by TMDB's status codes
/// (TMDB-SYNC-NOTES §2, TMDB's errors page).
public enum AccountFailure: Sendable, Hashable {
    /// TMDB already has it (8 duplicate entry, 21 entry not found, 40 nothing to update): done.
    case alreadyApplied
    /// Worth trying again later. `isGlobal` (remote-wide) when TMDB itself is failing, so nothing
    /// else would get through either: no answer or a timeout, a 429 (25), any 5xx (9, 11, 15, 24,
    /// 43, 46): the whole outbox backs off and probes with one entry. Otherwise (an answer that
    /// cannot be read or does not confirm the write) only that entry backs off.
    case retry(isGlobal: Bool, afterSeconds: Int?)
    /// The session is refused (3, 7, 10, 14, 16, 17, 33, 35, 36, 37, 38, 39, 45, any 401): pause
    /// the outbox, keep every entry, until the user signs in again.
    case auth
    /// TMDB refuses this entry for good (5, 6, 18, 34, 44, 47, other 4xx): drop it, undo it, keep why.
    case reject
    /// The call was cancelled (the daemon is stopping): nothing is known.
    case cancelled

    /// TMDB codes meaning the change is already there.
    static let alreadyAppliedCodes: Set<Int> = [8, 21, 40]
    /// TMDB codes about the session or the user's permission.
    static let authCodes: Set<Int> = [3, 7, 10, 14, 16, 17, 30, 31, 32, 33, 35, 36, 37, 38, 39, 45]
    /// TMDB codes refusing the request itself.
    static let rejectCodes: Set<Int> = [5, 6, 18, 34, 44, 47]
    /// TMDB codes of a service-wide outage.
    static let outageCodes: Set<Int> = [9, 25, 46]

    /// The class of `error`.
    public static func classify(_ error: any Error) -> AccountFailure {
        guard let error = error as? MoviesError else { return .retry(isGlobal: true, afterSeconds: nil) }
        if error.code == .cancelled { return .cancelled }
        if let code = error.tmdbCode {
            if alreadyAppliedCodes.contains(code) { return .alreadyApplied }
            if authCodes.contains(code) { return .auth }
            if rejectCodes.contains(code) { return .reject }
            if outageCodes.contains(code) { return .retry(isGlobal: true, afterSeconds: error.retryAfterSeconds) }
        }
        guard let status = error.httpStatus else {
            // No HTTP answer: the network, a timeout, an unreadable answer.
            return error.code == .invalidResponse ? .retry(isGlobal: false, afterSeconds: nil) : .retry(isGlobal: true, afterSeconds: error.retryAfterSeconds)
        }
        switch status {
        case 401: return .auth
        case 429, 500...599: return .retry(isGlobal: true, afterSeconds: error.retryAfterSeconds)
        case 400...499: return .reject
        default: return .retry(isGlobal: false, afterSeconds: nil)
        }
    }
}
