import FoundationEssentials

extension RemoteHealth {
    /// Runs `operation` (one remote call); if it is still running after the configured
    /// `slowCallSeconds`, marks the remote offline (``recordSlow(afterSeconds:)``) while the call
    /// goes on. The timer is a child task: it ends with the call.
    nonisolated func timingSlowCall<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let seconds = configuration.slowCallSeconds, seconds > 0 else { return try await operation() }
        let sleep = self.sleep
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                do {
                    try await sleep(seconds)
                } catch {
                    return nil
                }
                if !Task.isCancelled { await self.recordSlow(afterSeconds: seconds) }
                return nil
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let value = next { return value }
            }
            throw CancellationError()
        }
    }
}
