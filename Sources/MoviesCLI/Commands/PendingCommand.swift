import CommandLineSupport

/// `movies pending [--dismiss-rejected]`: the account's outbox.
struct PendingCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "pending",
        abstract: "List the TMDB account edits not yet on TMDB, and those TMDB refused.",
        usage: "pending [--dismiss-rejected]",
        arguments: [],
        options: [.flag("--system", help: "The system TMDB account's outbox (the admin group's), not your own."), .flag("--dismiss-rejected", help: "Forget the edits TMDB refused (after reading why).")],
        discussion: """
            Each edit shows its state: pending (waiting for TMDB; tried again at the time shown), \
            blocked_on_auth (TMDB refused the session: sign in again), delivered (on TMDB, its lists \
            do not show it yet) or rejected (TMDB refused it for good; it was undone). 'movies sync \
            --wait' sends them now.
            """
    )

    let dismissRejected: Bool

    /// `--system`: the system's watchlists or account rather than the caller's own.
    let system: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        system = arguments.has("--system")
        guard arguments.positionals.isEmpty else { throw UsageError("'pending' takes no arguments", command: "pending") }
        dismissRejected = arguments.has("--dismiss-rejected")
    }

    func run(_ commandContext: CommandContext) -> ExitCode {
        let context = system ? commandContext.actingOnSystem() : commandContext
        do {
            let reply = try context.client.pending(dismissRejected: dismissRejected)
            context.json ? context.answer(reply.parameters) : context.print(AccountListView.pendingLines(reply.value, now: context.now()))
            return .success
        } catch {
            return context.fail(error)
        }
    }
}
