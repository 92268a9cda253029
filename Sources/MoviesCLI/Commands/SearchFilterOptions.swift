import CommandLineSupport
import MoviesDomain

/// `--language`, `--region` and `--year`: TMDB's parameters that change a search's answer (and
/// `--language` a movie's details), checked here so a typo is a usage error, not a daemon error.
struct SearchFilterOptions: Sendable, Hashable {
    /// The `--language` option (`search` and `show`).
    static let language = OptionSpec.option("--language", value: "LANG", help: "TMDB's language for titles and overviews, e.g. en, de-DE (default: moviesd's [Remote] Language=, else TMDB's).")
    /// The `--region` and `--year` options (`search` only).
    static let searchOnly: [OptionSpec] = [
        .option("--region", value: "CODE", help: "An ISO 3166-1 country code, e.g. GB: release dates of that country."),
        .option("--year", value: "YYYY", help: "Only movies released that year."),
    ]

    /// The language tag, `nil` for the daemon's default.
    var language: String?
    /// The upper-case region code.
    var region: String?
    /// The release year.
    var year: Int?

    /// Reads the options of `command` from `arguments`.
    init(_ arguments: ParsedArguments, command: String) throws(UsageError) {
        if let tag = arguments.value("--language") {
            guard SearchRequest.isValidLanguage(tag) else {
                throw UsageError("--language takes a language tag such as en or de-DE, not '\(tag)'", command: command)
            }
            language = tag
        }
        if let code = arguments.value("--region") {
            // Written as people type it (gb), sent as TMDB wants it (GB).
            let upper = code.uppercased()
            guard SearchRequest.isValidRegion(upper) else {
                throw UsageError("--region takes a two-letter country code (ISO 3166-1) such as GB or US, not '\(code)'", command: command)
            }
            region = upper
        }
        year = try arguments.integer("--year", in: SearchRequest.years, command: command)
    }
}
