import CommandLineSupport
import MoviesDomain
import MoviesWire

/// `movies catalogue update` (authorised callers): TMDB's daily ID export, downloaded and
/// imported now.
struct CatalogueCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "catalogue",
        abstract: "Import TMDB's daily list of every movie now, for offline search.",
        usage: "catalogue update",
        arguments: [ArgumentSpec(name: "update", help: "Download the newest export and import what changed.")],
        options: [],
        discussion: """
            The catalogue lets the local search find any movie offline, after the cached ones, \
            marked "not cached". moviesd imports it by itself once a week ([Catalogue] MaxAge=); \
            'movies status' says of which day it is. A failed download or import keeps the \
            catalogue of before. Only root, the daemon's user and members of its admin group may \
            do this; others get exit code 77.
            """
    )

    /// `update`.
    static func completion(after positionals: [String]) -> CompletionSource {
        positionals.isEmpty ? .words([CompletionCandidate("update", description: "download and import the newest export")]) : .nothing
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals == ["update"] else {
            throw UsageError("say 'update', as in 'movies catalogue update'", command: "catalogue")
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        do {
            let reply = try context.client.updateCatalogue()
            if context.json {
                context.answer(reply.parameters)
            } else {
                context.print([Self.summary(reply.value.summary)])
            }
            return .success
        } catch {
            return context.fail(error)
        }
    }

    /// "Imported TMDB's export of 2026-03-05: 1034467 titles (357 new, 415 removed, 2030 changed;
    /// 43358 adult or video entries left out)."
    static func summary(_ summary: CatalogueImportSummary) -> String {
        var details = "\(summary.added) new, \(summary.removed) removed, \(summary.retitled) changed"
        if summary.skipped > 0 { details += "; \(summary.skipped) adult or video entries left out" }
        if summary.unreadable > 0 { details += "; \(summary.unreadable) unreadable lines skipped" }
        let titles = summary.titles == 1 ? "1 title" : "\(summary.titles) titles"
        return "Imported TMDB's export of \(summary.exportDate): \(titles) (\(details))."
    }
}
