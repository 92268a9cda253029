import FoundationEssentials
import MoviesDomain

/// The background check that decides when an offline TMDB is back (DESIGN §4), so no user call
/// waits on a remote that is known to be down.
///
/// A long-running service: `run()` attaches itself to the ``RemoteHealth`` (an offline remote then
/// stays gated until the probe reaches it), and while the remote is offline sends one cheap request
/// (`configuration`) each time the backoff period ends, recording the outcome. It returns when its
/// task is cancelled.
public struct RemoteProbe: Sendable {
    private let health: RemoteHealth
    private let remote: any MoviesRemote
    private let sleep: @Sendable (Double) async throws -> Void
    private let idleSeconds: Double

    /// Creates a probe.
    /// - Parameters:
    ///   - health: the health it reports to and reads the backoff from.
    ///   - remote: TMDB.
    ///   - idleSeconds: how often it looks at the state while the remote is not offline.
    ///   - sleep: the clock's sleep (tests pass a virtual one).
    public init(
        health: RemoteHealth, remote: any MoviesRemote, idleSeconds: Double = 1,
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) {
        self.health = health
        self.remote = remote
        self.idleSeconds = max(0.001, idleSeconds)
        self.sleep = sleep
    }

    /// Probes while the remote is offline, until cancelled.
    public func run() async {
        await health.attachProbe()
        while !Task.isCancelled {
            guard await step() else { break }
        }
        await health.detachProbe()
    }

    /// Waits for the next check and makes it if one is due; `false` once cancelled.
    func step() async -> Bool {
        guard let delay = await health.probeDelay() else {
            return (try? await sleep(idleSeconds)) != nil
        }
        if delay > 0 {
            guard (try? await sleep(min(delay, idleSeconds))) != nil else { return false }
            return true
        }
        await probeOnce()
        return !Task.isCancelled
    }

    /// An explicit command's probe (`movies refresh`): while background work is paused, sends one
    /// request at once, so the command's work goes to TMDB if it is back and fails at once if not;
    /// does nothing otherwise.
    public func probeIfPaused() async {
        guard await health.isPaused() else { return }
        await probeOnce()
    }

    /// Sends one `configuration` request and records what it says about the remote. It waits at
    /// most the health's slow-call mark (the answer deadline): a request still unanswered then is a
    /// failure ("did not answer"), so a hanging TMDB never holds up the next probe.
    func probeOnce() async {
        await health.takeProbeRequest()
        let remote = remote
        do {
            _ = try await SlowCallMark.bounded(after: health.configuration.slowCallSeconds, sleep: health.sleep) {
                try await remote.fetch(.configuration, etag: nil)
            }
            await health.recordSuccess()
        } catch {
            let failure = MoviesError(wrapping: error)
            guard failure.code != .cancelled else { return }
            await health.recordFailure(failure)
        }
    }
}
