import MoviesDomain
import CommandLineSupport

/// The text of `movies --help` and `movies COMMAND --help`, wrapped to a width (the terminal's,
/// `COLUMNS`, `--width`, else 80): descriptions wrap in their column, never cut.
enum HelpText {
    /// The exit codes, as documented in every help text.
    static let exitCodes: [(code: String, meaning: String)] = [
        ("0", "success (also when stale cached data was shown because TMDB was unreachable)"),
        ("1", "any other error (e.g. TMDB has no such movie, a watchlist has no such entry)"),
        ("64", "usage error: the command line is wrong"),
        ("69", "the daemon is unreachable: no socket, or nobody listening (start moviesd)"),
        ("74", "the daemon's database failed: disk full, locked, or damaged (the message says what to do)"),
        ("75", "TMDB is unavailable and nothing usable is cached (try again later)"),
        ("77", "permission denied by the daemon or the socket; for account commands also: nobody is signed in, or TMDB refused the session (sign in again)"),
        ("78", "the configuration file (movies.conf) is wrong: the message names the file and line"),
    ]

    /// The top-level help, listing `commands`.
    static func main(commands: [CommandSpec], width: Int = TerminalCapabilities.defaultWidth) -> String {
        var text = paragraph("movies \(MoviesdRelease.version) — ask moviesd, the offline-first TMDB cache, about movies.", width: width)
        text += "\n" + paragraph("Usage: movies [--socket PATH] [--json [--stream]] [--width N] [--color WHEN] [--no-pager] COMMAND [ARGUMENTS…]", width: width)
        text += "\nCommands:\n"
        text += table(commands.map { ($0.name, $0.abstract) }, width: width)
        text += "\nOptions:\n" + options(ArgumentParser.globalOptions, width: width)
        text += "\nEnvironment:\n" + table([
            ("MOVIESD_SOCKET", "the daemon's socket, when --socket is not given"),
            ("NO_COLOR", "when set and not empty, never use colour (unless --color=always)"),
            ("COLUMNS", "the width to fit output to on a terminal (--width overrides it)"),
            ("MOVIES_PAGER, PAGER", "the pager of long output on a terminal (default: less -FRX; empty or cat: none)"),
            ("MOVIES_CONFIG", "the configuration file (default: $XDG_CONFIG_HOME/movies/movies.conf, else ~/.config/movies/movies.conf; empty: none; a file it names must exist)"),
            ("BROWSER", "the browser of 'show --web' and browse's o key (default: xdg-open)"),
        ], width: width)
        text += "\n" + paragraph("Default socket: $MOVIESD_SOCKET; else your own daemon's, $XDG_RUNTIME_DIR/moviesd/io.moviesd.Movies (/run/user/UID/… without the variable), when it exists; else the system daemon's, /run/moviesd/io.moviesd.Movies. Root follows the same rule.", width: width)
        text += "\n" + paragraph("Output: on a terminal, titles are shortened and other text wraps to the width; piped or in a file, nothing is cut or padded to a width, one movie a line. --json prints one JSON object a line: the final answer of each call, or a failure as {\"error\": NAME, \"exitCode\": N, \"message\": …, \"parameters\": {…}}; --stream prints every update, each with \"update\": \"cached\", \"progress\" or \"final\".", width: width)
        text += "\nExit codes:\n" + table(exitCodes, width: width)
        text += "\n" + paragraph("Run 'movies help COMMAND' or 'movies COMMAND --help' for a command's arguments and options.", width: width)
        return text
    }

    /// The help of one command.
    static func command(_ spec: CommandSpec, width: Int = TerminalCapabilities.defaultWidth) -> String {
        var text = paragraph("movies \(spec.name) — \(spec.abstract)", width: width)
        text += "\n" + paragraph("Usage: movies \(spec.usage)", width: width, hangingIndent: 7)
        if !spec.arguments.isEmpty {
            text += "\nArguments:\n" + table(spec.arguments.map { ($0.name, $0.help) }, width: width)
        }
        // A command's own option replaces the global one of the same name (refresh's --quiet).
        let own = Set(spec.options.flatMap(\.names))
        let globals = ArgumentParser.globalOptions.filter { $0.names.allSatisfy { !own.contains($0) } }
        text += "\nOptions:\n" + options(spec.options + globals, width: width)
        if !spec.discussion.isEmpty { text += "\n" + paragraph(spec.discussion, width: width) }
        text += "\nExit codes:\n" + table(exitCodes, width: width)
        return text
    }

    /// "-o, --output FILE" for `option`.
    static func label(_ option: OptionSpec) -> String {
        option.names.reversed().joined(separator: ", ") + (option.valueName.map { " " + $0 } ?? "")
    }

    private static func options(_ options: [OptionSpec], width: Int) -> String {
        table(options.map { (label($0), $0.help) }, width: width)
    }

    /// Two columns, indented by two: names, then descriptions wrapped in their own column (under
    /// the name, indented by six, when the name column would leave fewer than 30 columns).
    private static func table(_ rows: [(String, String)], width: Int) -> String {
        let nameWidth = (rows.map { DisplayWidth.of($0.0) }.max() ?? 0) + 2
        let indent = 2 + nameWidth
        return rows.map { name, description in
            guard width - indent >= 30 else {
                return "  \(name)\n" + TextWrapping.wrap(description, width: width - 6).map { "      " + $0 + "\n" }.joined()
            }
            let lines = TextWrapping.wrap(description, width: width - indent)
            let pad = String(repeating: " ", count: indent)
            return "  " + TextFitting.fit(name, to: nameWidth) + (lines.first ?? "") + "\n" + lines.dropFirst().map { pad + $0 + "\n" }.joined()
        }.joined()
    }

    /// `text` wrapped to `width`, ending in a newline.
    private static func paragraph(_ text: String, width: Int, hangingIndent: Int = 0) -> String {
        let pad = String(repeating: " ", count: hangingIndent)
        let lines = TextWrapping.wrap(text, width: width - hangingIndent)
        return lines.enumerated().map { $0.offset == 0 ? $0.element : pad + $0.element }.joined(separator: "\n") + "\n"
    }
}
