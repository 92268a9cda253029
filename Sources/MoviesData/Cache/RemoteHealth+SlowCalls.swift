import FoundationEssentials

extension RemoteHealth {
    /// Runs `operation` (one remote call); if it is still running after the configured
    /// `slowCallSeconds`, marks the remote offline (``recordSlow(afterSeconds:)``) while the call
    /// goes on. The timer is a child task: it ends with the call.
    nonisolated func timingSlowCall<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let seconds = configuration.slowCallSeconds ?? 0
        return try await SlowCallMark.run(after: seconds, sleep: sleep, onSlow: { await self.recordSlow(afterSeconds: seconds) }, operation)
    }
}
