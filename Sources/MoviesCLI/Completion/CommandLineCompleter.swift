import CommandLineSupport

/// Decides what the last word of a `movies` command line completes with, from the one command
/// table (`MoviesCommandLine.commandSpecs`, each command's `completion(after:)`) and the
/// global options: the shell scripts in `completions/` only pass the words and print the answer.
struct CommandLineCompleter {
    /// The words after `movies`, the last one being completed (possibly empty).
    let words: [String]

    /// What the last word completes with, and the part of it to match.
    func source() -> (source: CompletionSource, prefix: String) {
        let current = words.last ?? ""
        let before = Array(words.dropLast())
        var command: (any MoviesCommand.Type)?
        var isHelp = false
        var positionals: [String] = []
        var optionsEnded = false
        var index = 0
        while index < before.count {
            let word = before[index]
            index += 1
            if !optionsEnded, word == "--" {
                optionsEnded = true
            } else if !optionsEnded, word.hasPrefix("-"), word != "-" {
                // An option taking a value skips it (not when written --name=value or -nVALUE, which
                // name no option); when the value is the word being completed, complete it.
                guard let option = Self.option(named: word, command: command), option.valueName != nil else { continue }
                if index == before.count { return (Self.values(of: option), current) }
                index += 1
            } else if command == nil, !isHelp {
                if word == "help" { isHelp = true } else { command = MoviesCommandLine.commandType(named: word) }
                if command == nil, !isHelp { return (.nothing, current) }
            } else {
                positionals.append(word)
            }
        }
        if !optionsEnded, current.hasPrefix("--"), let equals = current.firstIndex(of: "=") {
            let name = String(current[..<equals])
            guard let option = Self.option(named: name, command: command), option.valueName != nil else { return (.nothing, current) }
            return (Self.prefixed(Self.values(of: option), with: name + "="), current)
        }
        if !optionsEnded, current.hasPrefix("-") {
            let options = (command?.spec.options ?? []) + ArgumentParser.globalOptions
            return (.words(options.flatMap { option in option.names.map { CompletionCandidate($0, description: option.help) } }), current)
        }
        if isHelp { return (positionals.isEmpty ? .commands(withHelp: false) : .nothing, current) }
        guard let command else { return (.commands(withHelp: true), current) }
        return (command.completion(after: positionals), current)
    }

    /// The option `name` of `command` or a global one.
    private static func option(named name: String, command: (any MoviesCommand.Type)?) -> OptionSpec? {
        ((command?.spec.options ?? []) + ArgumentParser.globalOptions).first { $0.names.contains(name) }
    }

    /// What the value of `option` completes with, by its placeholder.
    private static func values(of option: OptionSpec) -> CompletionSource {
        switch option.valueName {
        case "PATH", "FILE": .files
        case "USER|UID": .users
        case "WHEN": .words(ColorChoice.allCases.map(\.rawValue))
        case "QUERY": .recentQueries
        case "ID": .movieIDs
        default: .nothing
        }
    }

    /// `source`'s fixed words with `prefix` before each (`--color=` + `always`).
    private static func prefixed(_ source: CompletionSource, with prefix: String) -> CompletionSource {
        guard case .words(let candidates) = source else { return .nothing }
        return .words(candidates.map { CompletionCandidate(prefix + $0.word, description: $0.description) })
    }
}
