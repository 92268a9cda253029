import CommandLineSupport
import FoundationEssentials
import MoviesDomain

/// `movies sync [--wait] [--timeout D]`: sends the account's pending edits and pulls its lists now.
struct SyncCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "sync",
        abstract: "Send the TMDB account's pending edits and pull its lists now.",
        usage: "sync [--wait] [--timeout D]",
        arguments: [],
        options: [
            .flag("--system", help: "Sync the system TMDB account (the admin group's), not your own."),
            .flag("--wait", help: "Return only when every edit is on TMDB and shown by its lists (or something blocks)."),
            .option("--timeout", value: "D", help: "With --wait, give up after D (default 2m; 90s, 10m…, at most 1h)."),
        ],
        discussion: """
            Exits 0 when every edit is on TMDB (with --wait: and the account's lists show it), 75 when \
            edits still wait for TMDB (offline, failing, rate limited), 77 when nobody is signed in or \
            TMDB refused the session (sign in again with 'movies account login').
            """
    )

    let wait: Bool
    let timeoutSeconds: Int

    /// `--system`: the system's watchlists or account rather than the caller's own.
    let system: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        system = arguments.has("--system")
        guard arguments.positionals.isEmpty else { throw UsageError("'sync' takes no arguments", command: "sync") }
        wait = arguments.has("--wait")
        var timeout = 120
        if let text = arguments.value("--timeout") {
            guard wait else { throw UsageError("--timeout applies to 'sync --wait'", command: "sync") }
            guard let seconds = DurationParser.seconds(text), (1...3600).contains(seconds) else {
                throw UsageError("--timeout takes a duration from 1s to 1h, such as 90s or 10m, not '\(text)'", command: "sync")
            }
            timeout = seconds
        }
        timeoutSeconds = timeout
    }

    /// The longest one `Sync` call waits: the client gives up on a call after 60 s.
    static let callSeconds = 45.0

    func run(_ commandContext: CommandContext) -> ExitCode {
        let context = system ? commandContext.actingOnSystem() : commandContext
        do {
            let deadline = context.now().addingTimeInterval(Double(timeoutSeconds))
            var reply = try context.client.sync(waitSeconds: wait ? min(Self.callSeconds, Double(timeoutSeconds)) : nil)
            // Each call waits up to callSeconds in the daemon; the count bounds the loop whatever the clock says.
            var calls = 1
            let maxCalls = Int((Double(timeoutSeconds) / Self.callSeconds).rounded(.up)) + 1
            while wait, !reply.value.sync.isSettled, reply.value.sync.activity != .blockedOnAuth, reply.value.sync.activity != .signedOut, calls < maxCalls {
                let remaining = deadline.timeIntervalSince(context.now())
                guard remaining > 0.5 else { break }
                calls += 1
                reply = try context.client.sync(waitSeconds: min(Self.callSeconds, remaining))
            }
            let sync = reply.value.sync
            if context.json { context.answer(reply.parameters) } else { context.print([AccountSyncLine.describe(sync, now: context.now())]) }
            switch sync.activity {
            case .signedOut, .blockedOnAuth: return .noPermission
            default: break
            }
            if sync.pending > 0 || (wait && sync.unconfirmed > 0) { return .temporaryFailure }
            return .success
        } catch {
            return context.fail(error)
        }
    }
}
