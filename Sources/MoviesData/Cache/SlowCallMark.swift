import MoviesDomain

/// Runs one remote call and says once when it has been running for too long, while the call goes
/// on: the one mechanism behind `RemoteHealth`'s slow-call mark (TMDB offline at the answer
/// deadline) and the account outbox's "TMDB is not answering" (an edit stops waiting for it).
enum SlowCallMark {
    /// Runs `operation`; if it is still running after `seconds` (never when `nil` or not positive),
    /// calls `onSlow` once. The timer is a child task: it ends with the call.
    static func run<T: Sendable>(
        after seconds: Double?, sleep: @escaping @Sendable (Double) async throws -> Void,
        onSlow: @escaping @Sendable () async -> Void, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        guard let seconds, seconds > 0 else { return try await operation() }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                do {
                    try await sleep(seconds)
                } catch {
                    return nil
                }
                if !Task.isCancelled { await onSlow() }
                return nil
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let value = next { return value }
            }
            throw CancellationError()
        }
    }

    /// Runs `operation`, giving up after `seconds` (never when `nil` or not positive): the call is
    /// cancelled and the result is `remoteUnavailable`, "TMDB did not answer within N s".
    static func bounded<T: Sendable>(
        after seconds: Double?, sleep: @escaping @Sendable (Double) async throws -> Void,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        guard let seconds, seconds > 0 else { return try await operation() }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await sleep(seconds)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
                throw MoviesError(code: .remoteUnavailable, message: "TMDB did not answer within \(shown) s")
            }
            return value
        }
    }
}
