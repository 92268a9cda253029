import FoundationEssentials
import Glibc
import Varlink
import MoviesDomain

/// What a command runs with: the daemon client, where to write, the terminal's capabilities,
/// whether to print JSON, and the clock.
struct CommandContext {
    /// The daemon, through the `MoviesClient` port.
    var client: any MoviesClient
    /// Which daemon `client` talks to (`movies status` names it); `nil` in tests that do not say.
    var daemonSocket: DaemonSocket?
    /// Standard output.
    let output: any TextSink
    /// Standard error.
    let errors: any TextSink
    /// Standard output's terminal capabilities.
    let terminal: TerminalCapabilities
    /// Whether `--json` (or `--stream`) was given.
    let json: Bool
    /// How JSON lines are printed: the final answer only, or every update (`--stream`).
    var jsonOutput = JSONOutput(streams: false)
    /// Whether standard output is a terminal (even with `--json`, whose views never use it).
    var standardOutputIsTerminal = false
    /// Whether `--quiet` was given: no warnings on standard error.
    var quiet = false
    /// Whether `--fail-stale` was given: cached data shown because TMDB failed exits 75.
    var failStale = false
    /// The current time.
    let now: () -> Date
    /// Writes bytes to a path (`-` = standard output); returns the failure reason, if any.
    let writeFile: (_ bytes: [UInt8], _ path: String) -> String?
    /// `$TERM`, if set (`browse` refuses `dumb`).
    var terminalType: String?
    /// The user's defaults from `movies.conf` (flags given win).
    var configuration = ClientConfiguration()
    /// Whether standard error is a terminal: lines for a person (a search's summary) go there
    /// when standard output is not one.
    var standardErrorIsTerminal = false
    /// Opens an address in the browser (`show --web`, browse's `o`); returns why it could not.
    /// `quiet`: the opener's output goes nowhere (a full-screen program's terminal).
    var openLink: @Sendable (_ link: String, _ quiet: Bool) -> String? = { link, quiet in LinkOpener.open(link, browser: nil, quiet: quiet) }
    /// The password database: who `--owner USER` is, and whose lists `--all-users` shows.
    var users = LocalUserNames.system
    /// The uid `movies` runs as.
    var callerUID = getuid()
    /// Waits this many seconds between polls (`account login --wait`); tests pass one that returns at once.
    var pause: (Double) -> Void = { seconds in
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        _ = nanosleep(&request, nil)
    }

    /// This context with a client whose watchlist and account calls act on the system's lists and
    /// account (`--system`) rather than the caller's own.
    func actingOnSystem() -> CommandContext {
        var context = self
        context.client = client.actingOnSystem()
        return context
    }

    /// This context with a client whose watchlist edits and refreshes act on the personal
    /// watchlists of the user `uid` (`--owner`).
    func actingFor(owner uid: UInt32) -> CommandContext {
        var context = self
        context.client = client.actingFor(owner: uid)
        return context
    }

    /// Prints `error`, a command line found wrong only once it runs (`--owner` naming no user), as
    /// a usage error is printed before any command runs, and returns 64.
    func fail(_ error: UsageError) -> ExitCode {
        if json { output.write(jsonOutput.line(error.json, update: .final) + "\n") }
        errors.write(error.text)
        return .usage
    }

    /// Prints `error` on standard error (and with `--json`, as the one JSON error line on standard
    /// output) and returns its exit code.
    func fail(_ error: ClientError) -> ExitCode {
        if json { output.write(jsonOutput.line(error.json(exitCode: error.exitCode), update: .final) + "\n") }
        errors.write("movies: \(error.message)\n")
        return error.exitCode
    }

    /// With `--json`, prints `answer` (a reply's parameters): the call's final answer.
    func answer(_ answer: JSONValue) {
        guard json else { return }
        output.write(jsonOutput.line(answer, update: .final) + "\n")
    }

    /// With `--stream`, prints `reply`, an update before the final answer; nothing otherwise.
    func update(_ reply: JSONValue, _ kind: JSONOutput.Update) {
        guard json, jsonOutput.streams else { return }
        output.write(jsonOutput.line(reply, update: kind) + "\n")
    }

    /// Ends a command whose results came from the cache because of `failure` (TMDB unreachable) or
    /// carried a `remoteError`: a warning on standard error unless `--quiet` (with `--json` the
    /// answer itself says so in `freshness.remoteError`). Returns 75 with `--fail-stale`, else 0.
    func finishStale(_ failure: ClientError?, remoteError: String?, showing: String = "cached data") -> ExitCode {
        guard failure != nil || remoteError != nil else { return .success }
        let code: ExitCode = failStale ? .temporaryFailure : .success
        let reason = Self.staleReason(failure, remoteError: remoteError)
        // The daemon's reasons are sentences ("TMDB refused the connection (…)."): quoted after a
        // colon, not in parentheses (which nested theirs and ended in ".)").
        let sentence = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
        if !quiet { errors.write("movies: warning: showing \(showing), TMDB could not be asked: \(sentence)\n") }
        return code
    }

    /// Why cached data stands in for a fresh answer: the failure's reason, else the reply's `remoteError`.
    static func staleReason(_ failure: ClientError?, remoteError: String?) -> String {
        if let failure { return failure.jsonParameters["reason"]?.stringValue ?? failure.message }
        return remoteError ?? "TMDB is unreachable"
    }

    /// Warns on standard error (unless `--quiet`) that an answer fetched from TMDB could not be
    /// stored in the daemon's cache. With `--json` the reply itself says so (`freshness.stored`).
    func warnNotStored(_ fault: StorageFault) {
        guard !quiet else { return }
        errors.write("movies: warning: this answer was not stored in moviesd's cache and will not be available offline (\(fault.rawValue): \(fault.advice))\n")
    }

    /// Prints `lines` on standard output.
    func print(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        output.write(lines.joined(separator: "\n") + "\n")
    }
}
