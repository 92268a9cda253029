import CommandLineSupport

/// `movies recent [--limit N] [--clear] [--format FORMAT]`: your recent successful search
/// queries, newest first, one a line (not on a terminal, or `--format tsv`: nothing else, not even
/// "No recent queries.").
struct RecentCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "recent",
        abstract: "List your recent search queries, newest first.",
        usage: "recent [--limit N] [--clear] [--format FORMAT]",
        options: [
            .option("--limit", "-n", value: "N", help: "Show at most N queries, 1 to 100 (default: the daemon's, 10)."),
            .flag("--clear", help: "Forget your recent queries (other users' stay)."),
            OutputFormat.spec,
        ],
        discussion: """
            Your history is your own: the daemon keeps each user's searches apart (it knows who \
            asks from the socket), so nobody else sees them, and --clear forgets only yours.
            """
    )

    let limit: Int?
    let clear: Bool
    let format: OutputFormat?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("'recent' takes no arguments; use --limit N to choose how many", command: "recent")
        }
        limit = try arguments.integer("--limit", in: 1...100, command: "recent")
        clear = arguments.has("--clear")
        format = try OutputFormat.requested(in: arguments, command: "recent")
        if clear, limit != nil {
            throw UsageError("choose only one of --limit and --clear", command: "recent")
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        if clear {
            do {
                let reply = try context.client.clearRecentQueries()
                if context.json {
                    context.answer(reply.parameters)
                } else {
                    let count = reply.value.cleared
                    context.print([count == 1 ? "Forgot 1 recent query." : "Forgot \(count) recent queries."])
                }
                return .success
            } catch {
                return context.fail(error)
            }
        }
        let viewModel = RecentQueriesViewModel(client: context.client)
        if context.json { viewModel.didReceiveReply = { parameters, _ in context.answer(parameters) } }
        viewModel.didLoad(limit: limit)
        if let error = viewModel.error { return context.fail(error) }
        if !context.json {
            // A query is printed whole, one a line: cutting it would show a query never searched.
            let table = OutputFormat.resolved(format, standardOutputIsTerminal: context.standardOutputIsTerminal) == .table
            context.print(viewModel.isEmpty && table ? ["No recent queries."] : viewModel.items.map(OutputFormat.field))
        }
        return .success
    }
}
