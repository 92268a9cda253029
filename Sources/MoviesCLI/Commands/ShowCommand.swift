import CommandLineSupport
import MoviesDomain
import Varlink

/// `movies show ID [--language LANG] [--offline | --fresh | --cache-first]`: one movie's details.
/// TMDB's details take a language only: `--region` and `--year` (of `search`) are refused.
struct ShowCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Show one movie's details.",
        usage: "show ID [--language LANG] [--offline | --fresh | --cache-first]",
        arguments: [ArgumentSpec(name: "ID", help: "The TMDB movie id (the last column of 'movies search').")],
        options: [SearchFilterOptions.language] + PolicyOptions.specs
    )

    let id: Int
    let policy: FetchPolicy?
    let language: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1, let text = arguments.positionals.first else {
            throw UsageError("give exactly one movie ID, e.g. 'movies show 603'", command: "show")
        }
        guard let id = Int(text), id > 0 else {
            throw UsageError("ID must be a positive whole number (a TMDB movie id), not '\(text)'", command: "show")
        }
        self.id = id
        policy = try PolicyOptions.policy(from: arguments, command: "show")
        language = try SearchFilterOptions(arguments, command: "show").language
    }

    func run(_ context: CommandContext) -> ExitCode {
        let viewModel = MovieDetailsViewModel(client: context.client, language: language, policy: policy)
        var answer: JSONValue?
        if context.json {
            viewModel.didReceiveReply = { parameters, continues in
                if continues { context.update(parameters, .cached) }
                answer = parameters
            }
        }
        viewModel.didLoad(id: id)
        if !context.json { context.print(MovieDetailsTerminalView.lines(for: viewModel, terminal: context.terminal)) }
        if let error = viewModel.error { return context.fail(error) }
        if let answer {
            let reason = viewModel.staleFailure.map { CommandContext.staleReason($0, remoteError: nil) }
            context.answer(JSONOutput.withRemoteError(answer, reason: reason))
        }
        return context.finishStale(viewModel.staleFailure, remoteError: viewModel.remoteError)
    }
}
