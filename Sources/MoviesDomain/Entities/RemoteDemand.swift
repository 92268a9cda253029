/// Who is asking TMDB, which decides how the retry pause applies while TMDB is known to be down
/// (`RemoteHealth.gate(for:)`): the pause governs background work only.
public enum RemoteDemand: Sendable, Hashable {
    /// Work nobody waits for (refresh-ahead, the daily change feed, the steps of a refresh after
    /// its probe): honours the pause, and while the background probe runs, waits for it.
    case background
    /// A user's call (a search, a movie, a poster): while TMDB is paused, at most one such call
    /// every `RemoteHealth.Configuration.userProbeSeconds` goes to TMDB, as a probe; the others
    /// answer from the cache (or fail) at once.
    case interactive
    /// A command that asks for TMDB explicitly (`movies search --fresh`, the probe at the start of
    /// `movies refresh`): tries at once, whatever the pause.
    case explicit

    /// The demand of the work running in this task, set where the work starts (the Varlink
    /// service, the refresher, the scheduler); `nil`: the loader decides from the call's policy
    /// (`network_only` is explicit, the others interactive).
    @TaskLocal public static var current: RemoteDemand?
}
