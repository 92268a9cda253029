import CommandLineSupport

/// `movies recent [--limit N]`: recent successful search queries, newest first.
struct RecentCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "recent",
        abstract: "List recent search queries, newest first.",
        usage: "recent [--limit N]",
        options: [.option("--limit", "-n", value: "N", help: "Show at most N queries, 1 to 100 (default: the daemon's, 10).")]
    )

    let limit: Int?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("'recent' takes no arguments; use --limit N to choose how many", command: "recent")
        }
        limit = try arguments.integer("--limit", in: 1...100, command: "recent")
    }

    func run(_ context: CommandContext) -> ExitCode {
        let viewModel = RecentQueriesViewModel(client: context.client)
        if context.json { viewModel.didReceiveReply = { parameters, _ in context.answer(parameters) } }
        viewModel.didLoad(limit: limit)
        if let error = viewModel.error { return context.fail(error) }
        if !context.json {
            // A query is printed whole, one a line: cutting it would show a query never searched.
            context.print(viewModel.isEmpty ? ["No recent queries."] : viewModel.items.map(TextFitting.printable))
        }
        return .success
    }
}
