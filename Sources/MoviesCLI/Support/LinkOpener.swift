import Glibc

/// Opens an address in the user's browser, as `gh … --web` does: `$BROWSER` when set (its first
/// entry when it is a list separated by colons, with `%s` standing for the address, else the
/// address after it; run by `sh -c`), else `xdg-open`. Waits for the opener to end (xdg-open
/// returns once the browser has it).
enum LinkOpener {
    /// Opens `link`; the sentence saying why it could not be, `nil` when it was.
    /// - Parameters:
    ///   - browser: `$BROWSER`'s value, if set.
    ///   - quiet: the opener's output goes to /dev/null (a full-screen program's terminal), not to
    ///     ours.
    static func open(_ link: String, browser: String?, quiet: Bool = false) -> String? {
        let command = browser?.split(separator: ":").first.map(String.init)?.trimmingSpaces ?? ""
        if !command.isEmpty {
            let script = command.contains("%s") ? command.replacingPercentS(with: "\"$1\"") : command + " \"$1\""
            switch run("/bin/sh", ["sh", "-c", script, "sh", link], searchesPath: false, quiet: quiet) {
            case .success(0): return nil
            case .success(127): return "the command of BROWSER ('\(command)') was not found"
            case .success(let status): return "BROWSER's command ('\(command)') failed (exit status \(status))"
            case .failure: return "the shell to run BROWSER's command could not be started"
            }
        }
        switch run("xdg-open", ["xdg-open", link], searchesPath: true, quiet: quiet) {
        case .success(0): return nil
        case .success(let status): return "xdg-open failed (exit status \(status))"
        case .failure(let failure) where failure.code == ENOENT:
            return "no program to open it: install xdg-utils (xdg-open) or set BROWSER"
        case .failure(let failure): return "xdg-open could not be started (\(String(cString: strerror(failure.code))))"
        }
    }

    /// Why a program could not be started: its `errno`.
    private struct SpawnFailure: Error {
        let code: Int32
    }

    /// Runs `program` with `arguments` and waits; its exit status (128 + the signal that ended it),
    /// or the `errno` of a failed start.
    private static func run(_ program: String, _ arguments: [String], searchesPath: Bool, quiet: Bool) -> Result<Int32, SpawnFailure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if quiet {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let started = searchesPath
            ? posix_spawnp(&pid, program, &actions, nil, &cArguments, environ)
            : posix_spawn(&pid, program, &actions, nil, &cArguments, environ)
        guard started == 0 else { return .failure(SpawnFailure(code: started)) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .success(0) }
        }
        // WIFEXITED, WEXITSTATUS and WTERMSIG, spelled out (glibc's macros do not reach Swift).
        return .success(status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
    }
}

extension String {
    /// Without spaces and tabs at either end.
    fileprivate var trimmingSpaces: String {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }

    /// Every `%s` replaced by `replacement`.
    fileprivate func replacingPercentS(with replacement: String) -> String {
        split(separator: "%s", omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
