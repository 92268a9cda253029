import Foundation

/// Runs blocking work (a blocking client, a child process) on its own thread so it never
/// occupies one of the few threads that run Swift concurrency tasks (the server's handlers).
func offThread<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Swift.Result { try work() })
        }
        thread.start()
    }
}
