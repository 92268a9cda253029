import CommandLineSupport
import Varlink

/// `movies refresh [NAME] [--all] [--quiet]`: refreshes the watchlists the caller may change (the
/// system's with `--system`, another user's with `--owner`: root only) and waits.
struct RefreshCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "refresh",
        abstract: "Refresh one watchlist, or all, now, and wait until it is done.",
        usage: "refresh [NAME] [--all] [--system | --owner USER|UID] [--quiet]",
        arguments: [ArgumentSpec(name: "NAME", help: "The watchlist to refresh (default: all of them).")],
        options: [
            .flag("--system", help: "Only the system watchlists (root and the admin group), not your own."),
            OwnerOption.spec,
            .flag("--all", help: "Fetch every entry again, not only what is due."),
            .flag("--quiet", "-q", help: "Print nothing but errors (the default when output is not a terminal)."),
        ],
        discussion: """
            Fetches what is due: entries never fetched, expired or about to expire, and those TMDB's \
            change feed lists as changed; the rest is left alone and counted as current, so the \
            timer's daily run costs a few requests, not one per entry. --all fetches everything \
            again (revalidating with the ETags TMDB gave). Shows a progress bar on a terminal; prints nothing but errors with --quiet or when output \
            is not a terminal, so it suits cron and systemd timers. A refresh of the same lists \
            already running is joined, never run twice; another user's refresh never holds up yours. \
            Root refreshes another user's lists with --owner USER|UID. Exits 0 when everything was refreshed, 75 when some entries \
            failed (TMDB unavailable), 1 when TMDB rejected the daemon's token, 77 when not allowed.
            """
    )

    let watchlist: String?
    let all: Bool
    let quiet: Bool

    /// A watchlist's name.
    static func completion(after positionals: [String]) -> CompletionSource {
        positionals.isEmpty ? .watchlists : .nothing
    }

    /// `--system`: the system's watchlists or account rather than the caller's own.
    let system: Bool
    /// `--owner`: the user (a name or a uid, read when the command runs) whose lists to refresh.
    let owner: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        system = arguments.has("--system")
        owner = try OwnerOption.text(in: arguments, command: "refresh")
        guard arguments.positionals.count <= 1 else {
            throw UsageError("'refresh' takes at most one watchlist NAME", command: "refresh")
        }
        watchlist = arguments.positionals.first
        all = arguments.has("--all")
        quiet = arguments.has("--quiet")
    }

    func run(_ commandContext: CommandContext) -> ExitCode {
        var context = system ? commandContext.actingOnSystem() : commandContext
        if let owner {
            do {
                context = context.actingFor(owner: try OwnerOption.uid(owner, users: context.users, command: "refresh"))
            } catch {
                return context.fail(error)
            }
        }
        let viewModel = RefreshViewModel(client: context.client)
        let showsProgress = !quiet && !context.json && context.terminal.isTTY
        var answer: JSONValue?
        if context.json {
            viewModel.didReceiveReply = { parameters, continues in
                if continues { context.update(parameters, .progress) }
                answer = parameters
            }
        }
        if showsProgress {
            let width = context.terminal.width
            viewModel.didUpdate = { [viewModel] progress in
                let finished = RefreshViewModel.finished(progress)
                let line = ProgressBarView.line(fraction: viewModel.fraction, finished: finished, total: progress.total, label: progress.step, width: width)
                context.output.write(ProgressBarView.clearLine + line)
            }
        }
        viewModel.didRequestRefresh(watchlist: watchlist, all: all)
        if showsProgress, viewModel.progress != nil { context.output.write(ProgressBarView.clearLine) }
        if let error = viewModel.error { return context.fail(owner == nil ? error : OwnerOption.explained(error)) }
        if let answer { context.answer(answer) }
        if let failure = viewModel.failureLine { context.errors.write("movies: \(failure)\n") }
        if showsProgress, let line = viewModel.summaryLine { context.print([line]) }
        return viewModel.exitCode
    }
}
