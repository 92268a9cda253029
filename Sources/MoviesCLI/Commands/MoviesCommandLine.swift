import FoundationEssentials
import Glibc

/// The `movies` program: parses the command line, picks the command, wires the client and views,
/// runs it and returns the exit code. `main.swift` calls `MoviesCommandLine.main`.
public struct MoviesCommandLine {
    /// The commands, in help order.
    static var commandSpecs: [CommandSpec] {
        [SearchCommand.spec, ShowCommand.spec, PosterCommand.spec, RecentCommand.spec, StatusCommand.spec, CacheCommand.spec, WatchlistCommand.spec, RefreshCommand.spec, AccountCommand.spec, SyncCommand.spec, PendingCommand.spec]
    }

    let environment: [String: String]
    let uid: UInt32
    let fileExists: (String) -> Bool
    let makeClient: (_ socketPath: String) -> any MoviesClient
    let output: any TextSink
    let errors: any TextSink
    let terminal: TerminalCapabilities
    let now: () -> Date
    let writeFile: (_ bytes: [UInt8], _ path: String) -> String?
    /// Waits between polls (`account login --wait`); `nil`: really sleep.
    var pause: ((Double) -> Void)?

    /// Runs `movies` with the process's arguments, environment and standard streams; returns the exit code.
    public static func main(arguments: [String]) -> Int32 {
        var environment: [String: String] = [:]
        for key in ["MOVIESD_SOCKET", "XDG_RUNTIME_DIR", "NO_COLOR", "COLUMNS", "TERM"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        let commandLine = MoviesCommandLine(
            environment: environment,
            uid: getuid(),
            fileExists: { access($0, F_OK) == 0 },
            makeClient: { VarlinkMoviesClient(socketPath: $0) },
            output: FileDescriptorSink(fileDescriptor: STDOUT_FILENO),
            errors: FileDescriptorSink(fileDescriptor: STDERR_FILENO),
            terminal: TerminalCapabilities.detect(fileDescriptor: STDOUT_FILENO, environment: environment),
            now: { Date() },
            writeFile: FileOutput.write
        )
        return commandLine.run(Array(arguments.dropFirst())).rawValue
    }

    /// Runs the command line `arguments` (without the program name).
    func run(_ arguments: [String]) -> ExitCode {
        do {
            return try dispatch(arguments)
        } catch {
            errors.write(error.text)
            return .usage
        }
    }

    private func dispatch(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let (name, rest) = splitCommand(arguments)
        guard let name else {
            let parsed = try ArgumentParser.parse(rest, spec: nil)
            if parsed.has("--version") { return printed("movies \(MoviesCLIVersion.current)\n") }
            if parsed.has("--help") { return printed(HelpText.main(commands: Self.commandSpecs)) }
            throw UsageError("missing COMMAND: try 'movies search QUERY', 'movies status' or 'movies --help'")
        }
        if name == "help" {
            let topics = rest.filter { !$0.hasPrefix("-") }
            guard let topic = topics.first else { return printed(HelpText.main(commands: Self.commandSpecs)) }
            return printed(HelpText.command(try commandType(named: topic).spec))
        }
        let command = try commandType(named: name)
        let parsed = try ArgumentParser.parse(rest, spec: command.spec)
        if parsed.has("--help") { return printed(HelpText.command(command.spec)) }
        if parsed.has("--version") { return printed("movies \(MoviesCLIVersion.current)\n") }
        let instance = try command.init(parsed)
        let json = parsed.has("--json")
        let resolver = SocketPathResolver(environment: environment, uid: uid, fileExists: fileExists)
        var context = CommandContext(
            client: makeClient(resolver.resolve(explicit: parsed.value("--socket"))),
            output: output,
            errors: errors,
            terminal: json ? TerminalCapabilities(isTTY: false, width: terminal.width, usesColor: false) : terminal,
            json: json,
            quiet: parsed.has("--quiet"),
            failStale: parsed.has("--fail-stale"),
            now: now,
            writeFile: writeFile
        )
        if let pause { context.pause = pause }
        return instance.run(context)
    }

    /// The command name (the first positional, skipping global options and their values) and the other arguments.
    private func splitCommand(_ arguments: [String]) -> (String?, [String]) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            if !argument.hasPrefix("-") || argument == "-" {
                var rest = arguments
                rest.remove(at: index)
                return (argument, rest)
            }
            index += argument == "--socket" ? 2 : 1
        }
        return (nil, arguments)
    }

    private func commandType(named name: String) throws(UsageError) -> any MoviesCommand.Type {
        switch name {
        case "search": return SearchCommand.self
        case "show": return ShowCommand.self
        case "poster": return PosterCommand.self
        case "recent": return RecentCommand.self
        case "account": return AccountCommand.self
        case "sync": return SyncCommand.self
        case "pending": return PendingCommand.self
        case "status": return StatusCommand.self
        case "cache": return CacheCommand.self
        case "watchlist": return WatchlistCommand.self
        case "refresh": return RefreshCommand.self
        default:
            let names = Self.commandSpecs.map(\.name).joined(separator: ", ")
            let hint = Suggestion.closest(to: name, among: Self.commandSpecs.map(\.name)).map { "did you mean '\($0)'? " } ?? ""
            throw UsageError("unknown command '\(name)'; \(hint)the commands are \(names)")
        }
    }

    private func printed(_ text: String) -> ExitCode {
        output.write(text)
        return .success
    }
}
