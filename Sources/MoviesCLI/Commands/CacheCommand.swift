import CommandLineSupport
import MoviesWire

/// `movies cache invalidate|purge (--all | --query Q | --movie ID | --posters)` (authorised callers).
struct CacheCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "cache",
        abstract: "Invalidate (mark stale, keep for offline use) or purge (delete) cached entries.",
        usage: "cache invalidate|purge (--all | --query QUERY | --movie ID | --posters)",
        arguments: [ArgumentSpec(name: "invalidate|purge", help: "Mark entries stale, or delete them.")],
        options: [
            .flag("--all", help: "Every cached entry."),
            .option("--query", value: "QUERY", help: "Every page and language of one search query."),
            .option("--movie", value: "ID", help: "One movie's details."),
            .flag("--posters", help: "Every poster image."),
        ],
        discussion: "Only root, the daemon's user and members of its admin group may do this; others get exit code 77."
    )

    let operation: CacheOperation
    let selection: CacheSelection

    /// `invalidate` or `purge`.
    static func completion(after positionals: [String]) -> CompletionSource {
        positionals.isEmpty
            ? .words([CompletionCandidate("invalidate", description: "mark entries stale, keep them for offline use"), CompletionCandidate("purge", description: "delete entries")])
            : .nothing
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1, let word = arguments.positionals.first,
              let operation = CacheOperation(rawValue: word) else {
            throw UsageError("say 'invalidate' or 'purge', e.g. 'movies cache invalidate --query matrix'", command: "cache")
        }
        self.operation = operation
        var selections: [CacheSelection] = []
        if arguments.has("--all") { selections.append(.all) }
        if arguments.has("--posters") { selections.append(.posters) }
        if let query = arguments.value("--query") {
            guard !query.allSatisfy(\.isWhitespace) else {
                throw UsageError("--query needs a non-empty QUERY", command: "cache")
            }
            selections.append(.query(query))
        }
        if let id = try arguments.integer("--movie", in: 1...Int(Int32.max), command: "cache") { selections.append(.movie(id: id)) }
        guard selections.count == 1, let selection = selections.first else {
            throw UsageError("choose exactly one of --all, --query QUERY, --movie ID and --posters", command: "cache")
        }
        self.selection = selection
    }

    func run(_ context: CommandContext) -> ExitCode {
        do {
            let reply = try context.client.maintainCache(operation, selection: selection)
            if context.json {
                context.answer(reply.parameters)
            } else {
                context.print(Self.summary(operation, reply.value))
            }
            return .success
        } catch {
            return context.fail(error)
        }
    }

    /// "Purged 12 entries." and, when watchlists lose entries, which and how to get them back.
    static func summary(_ operation: CacheOperation, _ reply: CacheMaintenanceReply) -> [String] {
        let verb = operation == .invalidate ? "Invalidated" : "Purged"
        let count = reply.entries == 1 ? "1 entry" : "\(reply.entries) entries"
        guard let pinned = reply.pinned, pinned > 0 else { return ["\(verb) \(count)."] }
        let which = pinned == 1
            ? "1 of them was kept for a watchlist and is no longer available offline"
            : "\(pinned) of them were kept for watchlists and are no longer available offline"
        return ["\(verb) \(count); \(which).", "Run 'movies refresh' to fetch \(pinned == 1 ? "it" : "them") again."]
    }
}
