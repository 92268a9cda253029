import Glibc

/// The pager long output on a terminal goes through, as git runs its pager: the command is
/// `$MOVIES_PAGER`, else `$PAGER`, else `less -FRX`, run by `/bin/sh -c` with the text on its
/// standard input and the terminal as its output; `LESS=FRX` and `LV=-c` are set when unset (so
/// `PAGER=less` keeps colours and quits at once on a short text). An empty command or `cat` means
/// no pager.
enum Pager {
    /// The default command.
    static let defaultCommand = "less -FRX"

    /// The pager command `environment` asks for; `nil` when it asks for none.
    static func command(environment: [String: String]) -> String? {
        let command = environment["MOVIES_PAGER"] ?? environment["PAGER"] ?? defaultCommand
        let words = command.split(whereSeparator: { $0 == " " || $0 == "\t" })
        return words.isEmpty || words == ["cat"] ? nil : command
    }

    /// Shows `text` through `command` and waits for the pager to end (the user quit it, maybe
    /// before reading everything: that is no failure). Returns `false` when the pager could not
    /// start (spawning `/bin/sh` failed, or the shell could not run the command: status 126 or
    /// 127), so the caller writes `text` itself.
    static func show(_ text: String, command: String) -> Bool {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return false }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        // Only the pager's standard input (a copy made in the child) may stay open in it, or it
        // would never see the end of the text.
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        guard let pid = spawnShell(command, standardInput: readEnd) else {
            close(readEnd)
            close(writeEnd)
            return false
        }
        close(readEnd)
        // A pager quit early closes the pipe: the write fails with EPIPE instead of killing us,
        // and Ctrl-C is the pager's to handle while it runs, as in git.
        let oldPipe = signal(SIGPIPE, SIG_IGN)
        let oldInterrupt = signal(SIGINT, SIG_IGN)
        let oldQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGPIPE, oldPipe)
            signal(SIGINT, oldInterrupt)
            signal(SIGQUIT, oldQuit)
        }
        FileDescriptorSink.writeAll(Array(text.utf8), to: writeEnd)
        close(writeEnd)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return true }
        }
        // WIFEXITED and WEXITSTATUS, spelled out (glibc's macros do not reach Swift).
        let exited = status & 0x7F == 0
        let code = (status >> 8) & 0xFF
        return !(exited && (code == 126 || code == 127))
    }

    /// Starts `/bin/sh -c command` reading `standardInput`, with signals the pager handles at
    /// their defaults and `LESS`/`LV` set when unset; its process id, `nil` when it could not start.
    private static func spawnShell(_ command: String, standardInput: Int32) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardInput, STDIN_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGQUIT, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        var environment: [String] = []
        var index = 0
        while let entry = environ[index] {
            environment.append(String(cString: entry))
            index += 1
        }
        for (key, value) in [("LESS", "FRX"), ("LV", "-c")] where !environment.contains(where: { $0.hasPrefix(key + "=") }) {
            environment.append("\(key)=\(value)")
        }
        let arguments = ["sh", "-c", command]
        var cArguments = arguments.map { strdup($0) } + [nil]
        var cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &cArguments, &cEnvironment)
        return result == 0 ? pid : nil
    }
}
