import FoundationEssentials
import MoviesDomain

extension RemoteHealth {
    /// How long one caller waits for a remote call: after the configured `slowCallSeconds` (the
    /// answer deadline) the remote is marked offline (``recordSlow(afterSeconds:)``) and the caller
    /// gets the gate's error, while the call goes on in the background. `nil` when no slow mark is
    /// configured (callers wait for the call's own deadline).
    ///
    /// The returned function waits on this health's injected sleep; it returns `nil` when it is
    /// cancelled first (the call answered).
    nonisolated var slowCallPatience: (@Sendable () async -> (any Error)?)? {
        guard let seconds = configuration.slowCallSeconds, seconds > 0 else { return nil }
        let sleep = self.sleep
        return {
            do {
                try await sleep(seconds)
            } catch {
                return nil
            }
            if Task.isCancelled { return nil }
            return await self.gaveUpWaiting(afterSeconds: seconds)
        }
    }

    /// Marks the remote slow and returns the error a caller that waited `seconds` answers with.
    private func gaveUpWaiting(afterSeconds seconds: Double) -> MoviesError {
        recordSlow(afterSeconds: seconds)
        return gate(for: .background) ?? MoviesError(
            code: .remoteUnavailable, message: "TMDB did not answer within \(Self.formatted(seconds)) s")
    }
}
