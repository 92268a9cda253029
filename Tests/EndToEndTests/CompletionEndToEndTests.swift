import Foundation
import Glibc
import MoviesTestSupport
import Testing

/// Shell completion on the real binaries (issue 28, item 5): `movies __complete` asks the daemon
/// for watchlist names and recent queries and never hangs or complains without one; the bash script
/// works in a bash without the bash-completion package, the zsh and fish scripts in theirs.
@Suite("movies shell completion end to end", .serialized, .blocksThreads)
struct CompletionEndToEndTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func script(_ name: String) -> String { repository.appendingPathComponent("completions/\(name)").path }
    static var binDirectory: String { URL(fileURLWithPath: BinaryLocator.path("movies")).deletingLastPathComponent().path }
    /// The environment of a shell that finds the `movies` just built first on its PATH.
    static var shellEnvironment: [String: String] {
        ["PATH": binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "HOME": FileManager.default.temporaryDirectory.path]
    }
    static func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// A daemon with the watchlist "films" (the query "the matrix") and the recent query "star wars".
    static func startWorld() throws -> Sandbox {
        let sandbox = try Sandbox.running()
        let added = try sandbox.movies(["watchlist", "add", "films", "the matrix"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try sandbox.movies(["search", "star", "wars"]).status == 0)
        return sandbox
    }

    /// `movies __complete -- WORDS…`'s candidate words.
    static func complete(_ words: [String]) throws -> (words: [String], result: ProcessResult) {
        let result = try ProcessRunner.run(BinaryLocator.path("movies"), ["__complete", "--"] + words)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "nothing on standard error: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == ":words" || lines.first == ":ordered" || lines.first == ":files", "\(result.stdout)")
        return (lines.dropFirst().map { String($0.split(separator: "\t").first ?? "") }, result)
    }

    @Test("__complete lists watchlist names, their queries and recent queries from the daemon")
    func dynamicValues() throws {
        let sandbox = try Self.startWorld()
        defer { sandbox.shutdown() }
        let socket = ["--socket", sandbox.socketPath]
        #expect(try Self.complete(socket + ["watchlist", "rm", ""]).words == ["films"])
        #expect(try Self.complete(socket + ["refresh", "f"]).words == ["films"])
        #expect(try Self.complete(socket + ["watchlist", "rm", "films", ""]).words == ["the matrix"])
        #expect(try Self.complete(socket + ["search", ""]).words.contains("star wars"))
        #expect(try Self.complete(socket + ["search", "--fail"]).words == ["--fail-stale"])
    }

    @Test("without a daemon, or with one that never answers, __complete gives the static candidates at once and no error")
    func noDaemon() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moviesd-complete-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let absent = directory.appendingPathComponent("absent.sock").path
        #expect(try Self.complete(["--socket", absent, "watchlist", "rm", ""]).words.isEmpty)
        #expect(try Self.complete(["--socket", absent, "watchlist", ""]).words == ["add", "rm", "ls", "delete"])

        // A socket that accepts connections (the backlog) and never answers.
        let silent = directory.appendingPathComponent("silent.sock").path
        let listener = try #require(Self.listeningSocket(at: silent))
        defer { close(listener) }
        let started = Date()
        let hung = try Self.complete(["--socket", silent, "refresh", ""])
        #expect(hung.words.isEmpty)
        #expect(Date().timeIntervalSince(started) < 5, "bounded by the completion timeout, not the call's")
    }

    @Test("bash without bash-completion: COMPREPLY from the script, nothing on standard error")
    func bash() throws {
        guard ToolRequirement.require(ToolRequirement.exists("/bin/bash"), "bash") else { return }
        let sandbox = try Self.startWorld()
        defer { sandbox.shutdown() }
        func reply(_ words: [String]) throws -> [String] {
            let assignment = "COMP_WORDS=(" + words.map(Self.quoted).joined(separator: " ") + "); COMP_CWORD=\(words.count - 1)"
            let program = """
                declare -F _init_completion >/dev/null && { echo 'bash-completion is loaded' >&2; exit 3; }
                source \(Self.quoted(Self.script("movies.bash")))
                \(assignment)
                COMPREPLY=()
                _movies
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let result = try ProcessRunner.run("/bin/bash", ["--norc", "--noprofile", "-c", program], environment: Self.shellEnvironment)
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "no '_init_completion: command not found': \(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        let socket = ["--socket", sandbox.socketPath]
        #expect(try reply(["movies", ""]).contains("watchlist"))
        #expect(try reply(["movies", "help", "wa"]) == ["watchlist"])
        #expect(try reply(["movies", "search", "-q", "--fail"]) == ["--fail-stale"])
        #expect(try reply(["movies"] + socket + ["watchlist", "ls", ""]) == ["films"])
        #expect(try reply(["movies"] + socket + ["watchlist", "rm", "films", ""]) == ["the\\ matrix"], "one word, escaped")
        #expect(try reply(["movies"] + socket + ["search", "st"]) == ["star\\ wars"])
        // bash splits --color=al at '='; the script joins it and replies what follows the '='.
        #expect(try reply(["movies", "--color", "=", "al"]) == ["always"])
        #expect(try reply(["movies", "--color", "="]) == ["auto", "always", "never"])
        // --owner takes a user: bash's own list of them (compgen -u).
        #expect(try reply(["movies", "refresh", "--owner", "roo"]) == ["root"])
    }

    @Test("zsh: the script hands _describe the candidates with their descriptions")
    func zsh() throws {
        guard ToolRequirement.require(ToolRequirement.exists("/usr/bin/zsh") || ToolRequirement.exists("/bin/zsh"), "zsh") else { return }
        let sandbox = try Self.startWorld()
        defer { sandbox.shutdown() }
        func described(_ words: [String]) throws -> [String] {
            let program = """
                fpath=(\(Self.quoted(Self.repository.appendingPathComponent("completions").path)) $fpath)
                _describe() { print -rl -- "${(@P)${@[-1]}}" }
                _files() { print -r -- FILES }
                _users() { print -r -- USERS }
                autoload -Uz _movies
                words=(\(words.map(Self.quoted).joined(separator: " "))); CURRENT=\(words.count)
                _movies
                """
            let result = try ProcessRunner.run("/usr/bin/env", ["zsh", "-f", "-c", program], environment: Self.shellEnvironment)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try described(["movies", "watchlist", "d"]) == ["delete:delete a watchlist"])
        #expect(try described(["movies", "--socket", sandbox.socketPath, "refresh", ""]) == ["films:watchlist"])
        #expect(try described(["movies", "poster", "603", "-o", ""]) == ["FILES"])
        #expect(try described(["movies", "watchlist", "ls", "--owner", ""]) == ["USERS"], "zsh's own _users")
    }

    @Test("fish: complete -C lists the candidates with their descriptions")
    func fish() throws {
        guard ToolRequirement.require(ToolRequirement.exists("/usr/bin/fish") || ToolRequirement.exists("/bin/fish"), "fish") else { return }
        let sandbox = try Self.startWorld()
        defer { sandbox.shutdown() }
        func completions(_ line: String) throws -> [String] {
            let program = "source \(Self.quoted(Self.script("movies.fish"))); complete -C \(Self.quoted(line))"
            let result = try ProcessRunner.run("/usr/bin/env", ["fish", "--no-config", "-c", program], environment: Self.shellEnvironment)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try completions("movies watchlist de") == ["delete\tdelete a watchlist"])
        #expect(try completions("movies --socket \(sandbox.socketPath) watchlist rm films ") == ["the matrix\tin films"])
        #expect(try completions("movies search --fail") == ["--fail-stale\tExit 75 when cached data is shown because TMDB is unreachable (default: exit 0 with a warning)"])
        #expect(try completions("movies refresh --owner roo").first?.hasPrefix("root") == true, "fish's own list of users")
    }

    /// Issue 46: recent queries newest first (zsh: an unsorted group, `_describe -V`; fish: kept in
    /// order), descriptions whole past "e.g.", and movie ids after `show`, titled.
    @Test("zsh keeps recent queries in recency order")
    func zshRecencyOrder() throws {
        guard ToolRequirement.require(ToolRequirement.exists("/usr/bin/zsh") || ToolRequirement.exists("/bin/zsh"), "zsh") else { return }
        let sandbox = try Self.startWorld()
        defer { sandbox.shutdown() }
        #expect(try sandbox.movies(["search", "zodiac"]).status == 0)
        let program = """
            fpath=(\(Self.quoted(Self.repository.appendingPathComponent("completions").path)) $fpath)
            _describe() { print -r -- "ARGS:$*"; print -rl -- "${(@P)${@[-1]}}" }
            autoload -Uz _movies
            words=(movies --socket \(Self.quoted(sandbox.socketPath)) search ''); CURRENT=5
            _movies
            """
        let result = try ProcessRunner.run("/usr/bin/env", ["zsh", "-f", "-c", program], environment: Self.shellEnvironment)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ARGS:-V ") == true, "an unsorted group: \(lines)")
        #expect(Array(lines.dropFirst()) == ["zodiac:recent search", "star wars:recent search"], "newest first, not alphabetical")
    }

    @Test("fish keeps recent queries in recency order, descriptions past e.g., ids after show")
    func fishOrderDescriptionsAndIDs() throws {
        guard ToolRequirement.require(ToolRequirement.exists("/usr/bin/fish") || ToolRequirement.exists("/bin/fish"), "fish") else { return }
        let sandbox = try Self.startWorld()
        defer { sandbox.shutdown() }
        #expect(try sandbox.movies(["search", "zodiac"]).status == 0)
        #expect(try sandbox.movies(["search", "matrix"]).status == 0)
        func completions(_ line: String) throws -> [String] {
            let program = "source \(Self.quoted(Self.script("movies.fish"))); complete -C \(Self.quoted(line))"
            let result = try ProcessRunner.run("/usr/bin/env", ["fish", "--no-config", "-c", program], environment: Self.shellEnvironment)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        let socket = "movies --socket \(sandbox.socketPath) "
        #expect(try completions(socket + "search ") == ["matrix\trecent search", "zodiac\trecent search", "star wars\trecent search"])
        #expect(try completions("movies search --max-") == ["--max-stale\tAccept cached results up to this old, e.g. 30d, 6h, 90m, 45s"])
        #expect(try completions("movies watchlist ").map { String($0.split(separator: "\t").first ?? "") } == ["add", "delete", "ls", "rm"], "fixed words still sorted")
        let ids = try completions(socket + "show ")
        #expect(ids.contains("603\tThe Matrix (1999), in \"matrix\""), "\(ids.prefix(3))")
    }

    @Test("__complete offers the ids of the newest search's movies after show and --movie")
    func movieIDs() throws {
        let sandbox = try Self.startWorld()
        defer { sandbox.shutdown() }
        #expect(try sandbox.movies(["search", "matrix"]).status == 0)
        let result = try ProcessRunner.run(BinaryLocator.path("movies"), ["__complete", "--", "--socket", sandbox.socketPath, "show", "60"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == ":ordered")
        #expect(lines.contains("603\tThe Matrix (1999), in \"matrix\""), "\(lines)")
        let movie = try ProcessRunner.run(BinaryLocator.path("movies"), ["__complete", "--", "--socket", sandbox.socketPath, "watchlist", "add", "films", "--movie", "603"])
        #expect(movie.stdout.contains("603\tThe Matrix (1999)"), "\(movie.stdout)")
    }

    /// A Unix socket listening at `path` that nobody accepts on.
    static func listeningSocket(at path: String) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { close(fd); return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else { close(fd); return nil }
        return fd
    }
}
