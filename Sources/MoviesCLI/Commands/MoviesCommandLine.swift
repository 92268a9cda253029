import MoviesDomain
import CommandLineSupport
import FoundationEssentials
import Glibc

/// The `movies` program: parses the command line, picks the command, wires the client and views,
/// runs it and returns the exit code. `main.swift` calls `MoviesCommandLine.main`.
public struct MoviesCommandLine {
    /// The commands, in help order: the one table parsing, help and completion read.
    static var commandTypes: [any MoviesCommand.Type] {
        [SearchCommand.self, BrowseCommand.self, ShowCommand.self, PosterCommand.self, RecentCommand.self, StatusCommand.self, CacheCommand.self, CatalogueCommand.self,
         WatchlistCommand.self, RefreshCommand.self, AccountCommand.self, SyncCommand.self, PendingCommand.self, MetricsCommand.self]
    }

    /// The commands' specs, in help order.
    static var commandSpecs: [CommandSpec] { commandTypes.map { $0.spec } }

    /// The command called `name`, `nil` when there is none.
    static func commandType(named name: String) -> (any MoviesCommand.Type)? {
        commandTypes.first { $0.spec.name == name }
    }

    /// How long a command waits for each reply of the daemon.
    static let replyTimeoutMilliseconds = 60_000

    let environment: [String: String]
    let uid: UInt32
    let fileExists: (String) -> Bool
    /// The daemon client on `socketPath`, waiting at most `timeoutMilliseconds` for each reply.
    let makeClient: (_ socketPath: String, _ timeoutMilliseconds: Int) -> any MoviesClient
    let output: any TextSink
    let errors: any TextSink
    let terminal: TerminalCapabilities
    let now: () -> Date
    let writeFile: (_ bytes: [UInt8], _ path: String) -> String?
    /// Waits between polls (`account login --wait`); `nil`: really sleep.
    var pause: ((Double) -> Void)?
    /// Shows long output on a terminal through a pager command; `false` when it could not start.
    /// Tests pass a recorder.
    var showInPager: (_ text: String, _ command: String) -> Bool = Pager.show
    /// The password database (`--owner USER`, the owners `--all-users` shows); tests pass their own.
    var users = LocalUserNames.system
    /// Whether standard error is a terminal.
    var standardErrorIsTerminal = false
    /// Opens an address in the browser; `nil`: `LinkOpener` with `$BROWSER`. Tests pass a recorder.
    var openLink: (@Sendable (_ link: String, _ quiet: Bool) -> String?)?

    /// Runs `movies` with the process's arguments, environment and standard streams; returns the exit code.
    public static func main(arguments: [String]) -> Int32 {
        var environment: [String: String] = [:]
        for key in ["MOVIESD_SOCKET", "XDG_RUNTIME_DIR", "NO_COLOR", "COLUMNS", "TERM", "MOVIES_PAGER", "PAGER",
                    "MOVIES_CONFIG", "XDG_CONFIG_HOME", "HOME", "BROWSER"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        var commandLine = MoviesCommandLine(
            environment: environment,
            uid: getuid(),
            fileExists: { access($0, F_OK) == 0 },
            makeClient: { VarlinkMoviesClient(socketPath: $0, timeoutMilliseconds: $1) },
            output: FileDescriptorSink(fileDescriptor: STDOUT_FILENO),
            errors: FileDescriptorSink(fileDescriptor: STDERR_FILENO),
            terminal: TerminalCapabilities.detect(fileDescriptor: STDOUT_FILENO, environment: environment),
            now: { Date() },
            writeFile: FileOutput.write
        )
        commandLine.standardErrorIsTerminal = isatty(STDERR_FILENO) == 1
        return commandLine.run(Array(arguments.dropFirst())).rawValue
    }

    /// Runs the command line `arguments` (without the program name).
    func run(_ arguments: [String]) -> ExitCode {
        if arguments.first == CompletionRunner.commandName { return complete(Array(arguments.dropFirst())) }
        do {
            return try dispatch(arguments)
        } catch {
            // A script that asked for JSON gets its error as JSON too, even when the command line
            // could not be parsed: the options are looked for before any `--`.
            let options = arguments.prefix { $0 != "--" }
            if asksForJSON(arguments) {
                output.write(JSONOutput(streams: options.contains("--stream")).line(error.json, update: .final) + "\n")
            }
            errors.write(error.text)
            return .usage
        }
    }

    private func dispatch(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let (name, rest) = try splitCommand(arguments)
        let width = helpWidth(arguments)
        let options = arguments.prefix { $0 != "--" }
        let json = asksForJSON(arguments)
        let helpOutput = standardOutput(terminal, paged: !json && !options.contains("--no-pager"))
        guard let name else {
            let parsed = try ArgumentParser.parse(rest, spec: nil)
            if parsed.has("--version") { return printed("movies \(MoviesdRelease.version)\n") }
            if parsed.has("--help") { return printed(HelpText.main(commands: Self.commandSpecs, width: width), to: helpOutput) }
            throw UsageError("missing COMMAND: try 'movies search QUERY', 'movies status' or 'movies --help'")
        }
        if name == "help" {
            let topics = rest.filter { !$0.hasPrefix("-") }
            guard let topic = topics.first else { return printed(HelpText.main(commands: Self.commandSpecs, width: width), to: helpOutput) }
            return printed(HelpText.command(try knownCommand(named: topic).spec, width: width), to: helpOutput)
        }
        let command = try knownCommand(named: name)
        let parsed = try ArgumentParser.parse(rest, spec: command.spec)
        if parsed.has("--help") { return printed(HelpText.command(command.spec, width: width), to: helpOutput) }
        if parsed.has("--version") { return printed("movies \(MoviesdRelease.version)\n") }
        let instance = try command.init(parsed)
        let configuration: ClientConfiguration
        do throws(ClientConfigurationError) {
            configuration = try ClientConfigurationFile.load(environment: environment)
        } catch {
            if json { output.write(JSONOutput(streams: parsed.has("--stream")).line(error.json, update: .final) + "\n") }
            errors.write(error.text)
            return .configuration
        }
        let daemonSocket = SocketPathResolver(environment: environment, uid: uid, fileExists: fileExists)
            .choose(explicit: parsed.value("--socket"))
        var terminal = try fittedTerminal(parsed, spec: command.spec)
        if let choice = parsed.value("--color") {
            terminal.usesColor = try ColorChoice(choice).usesColor(detected: terminal.usesColor)
        } else if let choice = configuration.color {
            terminal.usesColor = choice.usesColor(detected: terminal.usesColor)
        }
        var context = CommandContext(
            client: makeClient(daemonSocket.path, Self.replyTimeoutMilliseconds),
            output: standardOutput(terminal, paged: !json && !parsed.has("--no-pager")),
            errors: errors,
            terminal: json ? TerminalCapabilities(isTTY: false, width: terminal.width, usesColor: false) : terminal,
            json: json,
            quiet: parsed.has("--quiet"),
            failStale: parsed.has("--fail-stale"),
            now: now,
            writeFile: writeFile
        )
        context.daemonSocket = daemonSocket
        if let pause { context.pause = pause }
        context.terminalType = environment["TERM"]
        context.users = users
        context.callerUID = uid
        context.jsonOutput = JSONOutput(streams: parsed.has("--stream"))
        context.standardOutputIsTerminal = terminal.isTTY
        context.standardErrorIsTerminal = standardErrorIsTerminal
        context.configuration = configuration
        let browser = environment["BROWSER"]
        context.openLink = openLink ?? { link, quiet in LinkOpener.open(link, browser: browser, quiet: quiet) }
        return instance.run(context)
    }

    /// Whether the raw command line asks for JSON (`OutputFormat.asksForJSON`), `--format json`
    /// counting only for a command that has `--format`.
    private func asksForJSON(_ arguments: [String]) -> Bool {
        let name = (try? splitCommand(arguments))?.0
        let spec = name.flatMap { Self.commandType(named: $0) }?.spec
        let acceptsFormat = spec?.options.contains { $0.names.contains(OutputFormat.optionName) } ?? false
        return OutputFormat.asksForJSON(arguments, acceptsFormat: acceptsFormat)
    }

    /// The terminal's capabilities with `--width N` applied (it overrides `COLUMNS` and the
    /// terminal's own width), unless the command has a `--width` of its own (`poster`'s, in pixels).
    private func fittedTerminal(_ parsed: ParsedArguments, spec: CommandSpec) throws(UsageError) -> TerminalCapabilities {
        var terminal = terminal
        if !spec.options.contains(where: { $0.names.contains("--width") }),
           let width = try parsed.integer("--width", in: TerminalCapabilities.minimumWidth...10_000, command: nil) {
            terminal.width = width
        }
        return terminal
    }

    /// The terminal with `--width` applied, for help before any command runs (`--width` is looked
    /// for among the raw arguments; a bad value is left for the command to refuse).
    private func helpWidth(_ arguments: [String]) -> Int {
        let options = arguments.prefix { $0 != "--" }
        for (index, argument) in options.enumerated() {
            let value = argument.hasPrefix("--width=") ? String(argument.dropFirst(8))
                : argument == "--width" && index + 1 < options.count ? options[options.startIndex + index + 1] : nil
            if let value, let width = Int(value), width >= TerminalCapabilities.minimumWidth { return width }
        }
        return terminal.width
    }

    /// The command name (the first positional, skipping global options and their values) and the
    /// other arguments. An option before the command that no global option is, is refused here:
    /// skipped, its value would be taken for the command (`--sokcet PATH status`: "unknown
    /// command 'PATH'").
    private func splitCommand(_ arguments: [String]) throws(UsageError) -> (String?, [String]) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            if !argument.hasPrefix("-") || argument == "-" {
                var rest = arguments
                rest.remove(at: index)
                return (argument, rest)
            }
            // Global options that take a value skip it (`--socket PATH`, `--width N`).
            let name = argument.hasPrefix("--") ? String(argument.prefix { $0 != "=" }) : argument
            guard let option = ArgumentParser.globalOptions.first(where: { $0.names.contains(name) }) else {
                throw ArgumentParser.unknownBeforeCommand(argument)
            }
            index += option.valueName != nil && name == argument ? 2 : 1
        }
        return (nil, arguments)
    }

    private func knownCommand(named name: String) throws(UsageError) -> any MoviesCommand.Type {
        if let command = Self.commandType(named: name) { return command }
        let names = Self.commandSpecs.map(\.name).joined(separator: ", ")
        let hint = Suggestion.closest(to: name, among: Self.commandSpecs.map(\.name)).map { "did you mean '\($0)'? " } ?? ""
        throw UsageError("unknown command '\(name)'; \(hint)the commands are \(names)")
    }

    /// `movies __complete WORD…` (hidden from help): the completions of the last word, for the
    /// shell scripts in `completions/`. Always exit 0, nothing on standard error.
    private func complete(_ words: [String]) -> ExitCode {
        let runner = CompletionRunner(
            words: words.first == "--" ? Array(words.dropFirst()) : words,
            makeClient: { makeClient($0, CompletionRunner.timeoutMilliseconds) },
            resolver: SocketPathResolver(environment: environment, uid: uid, fileExists: fileExists),
            users: users)
        output.write(runner.lines().map { $0 + "\n" }.joined())
        return .success
    }

    /// Standard output for `terminal`: long output through the pager when `paged` and standard
    /// output is a terminal (never when piped, as git does).
    private func standardOutput(_ terminal: TerminalCapabilities, paged: Bool) -> any TextSink {
        guard paged, terminal.isTTY, let command = Pager.command(environment: environment) else { return output }
        return PagedOutput(direct: output, terminal: terminal) { [showInPager] text in showInPager(text, command) }
    }

    private func printed(_ text: String, to sink: (any TextSink)? = nil) -> ExitCode {
        (sink ?? output).write(text)
        return .success
    }
}
