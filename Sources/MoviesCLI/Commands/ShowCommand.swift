import CommandLineSupport
import MoviesDomain
import Varlink

/// `movies show ID [--language LANG] [--cache-first | --fresh | --offline] [--web]`: one movie's
/// details, with the addresses of its poster and TMDB page; `--web` opens that page in the browser
/// instead (as `gh … --web`). TMDB's details take a language only: `--region` and `--year` (of
/// `search`) are refused. The policy and language default to `movies.conf`'s `[Search]`.
struct ShowCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Show one movie's details.",
        usage: "show ID [--language LANG] \(PolicyOptions.usage()) [--web]",
        arguments: [ArgumentSpec(name: "ID", help: "The TMDB movie id (the last column of 'movies search').")],
        options: [SearchFilterOptions.language] + PolicyOptions.specs + [
            .flag("--web", help: "Open the movie's TMDB page in the browser ($BROWSER, else xdg-open) instead of showing it."),
        ]
    )

    /// The id completes with the movies of the newest search and of the caller's watchlists, titled.
    static func completion(after positionals: [String]) -> CompletionSource {
        positionals.isEmpty ? .movieIDs : .nothing
    }

    let id: Int
    let policy: FetchPolicy?
    let language: String?
    let web: Bool

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
        web = arguments.has("--web")
        if web, policy != nil || language != nil || arguments.has("--json") || arguments.has("--stream") {
            throw UsageError("--web opens the movie's TMDB page and asks moviesd nothing: give it alone, 'movies show \(id) --web'", command: "show")
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        if web { return openPage(context) }
        let defaults = context.configuration.search
        let viewModel = MovieDetailsViewModel(client: context.client, language: language ?? defaults.language, policy: policy ?? defaults.policy)
        var answer: JSONValue?
        if context.json {
            viewModel.didReceiveReply = { parameters, continues in
                if continues { context.update(parameters, .cached) }
                answer = parameters
            }
        }
        viewModel.didLoad(id: id)
        if !context.json { context.print(MovieDetailsTerminalView.lines(for: viewModel, terminal: context.terminal)) }
        if let error = viewModel.error {
            // No policy flag: the policy is movies.conf's, and the error's advice says so.
            return context.fail(error.asked(with: policy ?? defaults.policy, from: policy == nil ? .configuration : .flag))
        }
        if let answer {
            let reason = viewModel.staleFailure.map { CommandContext.staleReason($0, remoteError: nil) }
            context.answer(JSONOutput.withRemoteError(answer, reason: reason))
        }
        return context.finishStale(viewModel.staleFailure, remoteError: viewModel.remoteError)
    }

    /// `--web`: the movie's TMDB page in the browser; the address on standard error, as gh says it.
    private func openPage(_ context: CommandContext) -> ExitCode {
        let link = TMDBLinks.moviePage(id: id)
        if !context.quiet { context.errors.write("Opening \(link) in your browser.\n") }
        guard let failure = context.openLink(link, false) else { return .success }
        context.errors.write("movies: cannot open \(link): \(failure)\n")
        return .failure
    }
}
