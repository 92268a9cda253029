import CommandLineSupport
import MoviesDomain
import MoviesWire
import Varlink

/// `movies search QUERY… [--page N] [--language LANG] [--region CODE] [--year YYYY] [--cache-first | --fresh | --offline | --local] [--max-stale DURATION] [--format FORMAT]`.
/// The policy, language and region default to `movies.conf`'s `[Search]`; the format to a table on
/// a terminal, else TSV.
struct SearchCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "search",
        abstract: "Search movies by title: cached results at once, then fresh ones.",
        usage: "search QUERY… [--page N] [--language LANG] [--region CODE] [--year YYYY] \(PolicyOptions.usage(includingSearchOnly: true)) [--max-stale DURATION] [--format FORMAT]",
        arguments: [ArgumentSpec(name: "QUERY…", help: "The words to search for (joined with spaces).")],
        options: [.option("--page", value: "N", help: "The result page, 1 to 500 (default 1).")]
            + [SearchFilterOptions.language] + SearchFilterOptions.searchOnly + PolicyOptions.specs + PolicyOptions.searchSpecs + [
            .option("--max-stale", value: "DURATION", help: "Accept cached results up to this old, e.g. 30d, 6h, 90m, 45s."),
            OutputFormat.spec,
        ],
        discussion: """
            On a terminal the results are a table under a summary line. Piped or in a file (or with \
            --format tsv) each movie is one line, its title, year, rating and id separated by tabs, with \
            no header and no padding ('movies search matrix | cut -f4' prints the ids); the summary then \
            goes to standard error when that is a terminal. The policy, language and region default to \
            [Search] in movies.conf (see movies(1), FILES); a flag given wins.
            """
    )

    /// The query completes with the caller's recent queries.
    static func completion(after positionals: [String]) -> CompletionSource {
        positionals.isEmpty ? .recentQueries : .nothing
    }

    let query: String
    let page: Int
    let policy: FetchPolicy?
    let maxStaleSeconds: Int?
    let filters: SearchFilterOptions
    let format: OutputFormat?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let query = arguments.positionals.joined(separator: " ").split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        guard !query.isEmpty else {
            throw UsageError("missing QUERY: say what to search for, e.g. 'movies search the matrix'", command: "search")
        }
        self.query = query
        page = try arguments.integer("--page", in: 1...SearchRequest.maxPage, command: "search") ?? 1
        filters = try SearchFilterOptions(arguments, command: "search")
        format = try OutputFormat.requested(in: arguments, command: "search")
        policy = try PolicyOptions.policy(from: arguments, command: "search", includingSearchOnly: true)
        if let text = arguments.value("--max-stale") {
            guard let seconds = DurationParser.seconds(text) else {
                throw UsageError("--max-stale takes a duration such as 30d, 6h, 90m or 45s, not '\(text)'", command: "search")
            }
            maxStaleSeconds = seconds
        } else {
            maxStaleSeconds = nil
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        let defaults = context.configuration.search
        var filters = filters
        filters.language = filters.language ?? defaults.language
        filters.region = filters.region ?? defaults.region
        let viewModel = SearchMoviesViewModel(
            client: context.client, policy: policy ?? defaults.policy, maxStaleSeconds: maxStaleSeconds, filters: filters)
        let format = OutputFormat.resolved(format, standardOutputIsTerminal: context.standardOutputIsTerminal)
        // TSV's notes are for a person: standard error when one reads it there.
        let notes: (any TextSink)? = context.standardErrorIsTerminal && !context.quiet ? context.errors : nil
        let view = SearchResultsTerminalView(terminal: context.terminal, output: context.output, format: format, notes: notes)
        var answer: JSONValue?
        if context.json {
            viewModel.didReceiveReply = { parameters, continues in
                if continues { context.update(parameters, .cached) }
                answer = parameters
            }
        } else {
            viewModel.didChange = { [unowned viewModel] in view.update(viewModel) }
        }
        viewModel.didSearch(query: query, page: page)
        if !context.json { view.finish(viewModel) }
        if let error = viewModel.error {
            // No policy flag: the policy is movies.conf's, and the error's advice says so.
            return context.fail(error.asked(with: policy ?? defaults.policy, from: policy == nil ? .configuration : .flag))
        }
        if let fault = viewModel.notStored { context.warnNotStored(fault) }
        if context.json, viewModel.foundNothingLocally {
            // The daemon says NotCached; the answer is an empty page from the local index.
            let empty = SearchReply(
                page: MoviesPage(page: page, totalPages: 1, totalResults: 0, movies: []),
                freshness: Freshness(origin: .localIndex, fetchedAt: context.now(), ageSeconds: 0, stale: false))
            answer = .object(WireCoding.parameters(empty))
        }
        if let answer {
            let reason = viewModel.staleFailure.map { CommandContext.staleReason($0, remoteError: nil) }
            context.answer(JSONOutput.withRemoteError(answer, reason: reason))
        }
        return context.finishStale(
            viewModel.staleFailure, remoteError: viewModel.remoteError,
            showing: viewModel.isFromLocalIndex ? "matches among cached movies" : "cached data")
    }
}
