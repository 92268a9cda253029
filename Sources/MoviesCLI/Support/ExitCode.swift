/// The program's exit status, from sysexits(3).
public enum ExitCode: Int32, Sendable, Hashable {
    /// Success, including when stale cached data was shown because TMDB was unreachable.
    case success = 0
    /// Anything not covered below.
    case failure = 1
    /// EX_USAGE: the command line was wrong.
    case usage = 64
    /// EX_UNAVAILABLE: the daemon could not be reached.
    case unavailable = 69
    /// EX_IOERR: the daemon's database failed (disk full, locked, damaged).
    case ioError = 74
    /// EX_TEMPFAIL: TMDB is unavailable and nothing usable is cached.
    case temporaryFailure = 75
    /// EX_NOPERM: the daemon refused this caller.
    case noPermission = 77
    /// EX_CONFIG: the configuration file (`movies.conf`) is wrong.
    case configuration = 78
    /// Ended by Ctrl-C or SIGINT (128 + SIGINT), as shells report it.
    case interrupted = 130
    /// Ended by SIGTERM or SIGHUP (128 + SIGTERM).
    case terminated = 143
}
