import CommandLineSupport

/// `movies status`: which daemon answers (the user's own or the system's, and its socket), then its
/// version, uptime, remote state, cache size and last refresh.
struct StatusCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show which daemon answers (yours or the system's), its version, uptime, TMDB state and cache size.",
        usage: "status"
    )

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("'status' takes no arguments", command: "status")
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        let viewModel = StatusViewModel(client: context.client, now: context.now)
        if context.json { viewModel.didReceiveReply = { parameters, _ in context.answer(parameters) } }
        viewModel.didLoad()
        if let error = viewModel.error { return context.fail(error) }
        // Which daemon answered: the user's own (user service) or the system's. Not in the JSON,
        // which is the daemon's reply as it came.
        let daemon = context.daemonSocket.map { [DetailField(label: "Daemon", value: $0.description)] } ?? []
        if !context.json { context.print(FieldListView.lines(daemon + viewModel.fields, terminal: context.terminal)) }
        return .success
    }
}
