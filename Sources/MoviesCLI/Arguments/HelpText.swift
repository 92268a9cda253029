import CommandLineSupport

/// The text of `movies --help` and `movies COMMAND --help`.
enum HelpText {
    /// The exit codes, as documented in every help text.
    static let exitCodes = """
        Exit codes:
          0   success (also when stale cached data was shown because TMDB was unreachable)
          1   any other error
          64  usage error: the command line is wrong
          69  the daemon is unreachable: no socket, or nobody listening (start moviesd)
          74  the daemon's database failed: disk full, locked, or damaged (the message says what to do)
          75  TMDB is unavailable and nothing usable is cached (try again later)
          77  permission denied by the daemon or the socket
        """

    /// The top-level help, listing `commands`.
    static func main(commands: [CommandSpec]) -> String {
        var text = """
            movies \(MoviesCLIVersion.current) — ask moviesd, the offline-first TMDB cache, about movies.

            Usage: movies [--socket PATH] [--json] COMMAND [ARGUMENTS…]

            Commands:

            """
        let nameWidth = commands.map(\.name.count).max().map { $0 + 2 } ?? 12
        for command in commands {
            text += "  " + TextFitting.fit(command.name, to: nameWidth) + command.abstract + "\n"
        }
        text += "\nOptions:\n" + options(ArgumentParser.globalOptions)
        text += """

            Environment:
              MOVIESD_SOCKET   the daemon's socket, when --socket is not given
              NO_COLOR         when set and not empty, never use colour
              COLUMNS          the terminal width, when it cannot be detected

            Default socket: $MOVIESD_SOCKET; else /run/moviesd/io.moviesd.Movies for root; else
            $XDG_RUNTIME_DIR/moviesd/io.moviesd.Movies (the system socket when only that one exists).


            """
        text += exitCodes + "\n\nRun 'movies help COMMAND' or 'movies COMMAND --help' for a command's arguments and options.\n"
        return text
    }

    /// The help of one command.
    static func command(_ spec: CommandSpec) -> String {
        var text = "movies \(spec.name) — \(spec.abstract)\n\nUsage: movies \(spec.usage)\n"
        if !spec.arguments.isEmpty {
            let width = (spec.arguments.map { DisplayWidth.of($0.name) }.max() ?? 0) + 2
            text += "\nArguments:\n"
            for argument in spec.arguments {
                text += "  " + TextFitting.fit(argument.name, to: width) + argument.help + "\n"
            }
        }
        text += "\nOptions:\n" + options(spec.options + ArgumentParser.globalOptions)
        if !spec.discussion.isEmpty { text += "\n" + spec.discussion + "\n" }
        text += "\n" + exitCodes + "\n"
        return text
    }

    private static func options(_ options: [OptionSpec]) -> String {
        let labels = options.map { option in
            option.names.reversed().joined(separator: ", ") + (option.valueName.map { " " + $0 } ?? "")
        }
        let width = (labels.map(\.count).max() ?? 0) + 2
        return zip(labels, options).map { label, option in "  " + TextFitting.fit(label, to: width) + option.help + "\n" }.joined()
    }
}
