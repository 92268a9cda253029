import Foundation
import MoviesTestSupport
import Testing

/// `moviesd` as a process: Varlink conformance with a real peer, systemd integration, signals,
/// start-up errors and authorization (issue 3).
@Suite("moviesd as a process", .serialized, .blocksThreads)
struct DaemonProcessTests {
    @Test("the Python varlink client can introspect and call moviesd")
    func pythonVarlinkConformance() async throws {
        guard ToolRequirement.require(ToolRequirement.pythonVarlink, "python3 module varlink (pip install varlink==31.0.0)") else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let address = "unix:\(sandbox.socketPath)"

        let info = try ProcessRunner.run("/usr/bin/env", [ToolRequirement.python, "-m", "varlink.cli", "info", address])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("io.moviesd.Movies"))
        #expect(info.stdout.contains("org.varlink.service"))

        let help = try ProcessRunner.run("/usr/bin/env", [ToolRequirement.python, "-m", "varlink.cli", "help", "\(address)/io.moviesd.Movies"])
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.contains("method Search("))

        let call = try ProcessRunner.run("/usr/bin/env", [ToolRequirement.python, "-m", "varlink.cli", "call", "\(address)/io.moviesd.Movies.Search", #"{"query": "matrix"}"#])
        #expect(call.status == 0, "\(call.stderr)")
        #expect(call.stdout.contains("\"freshness\""))

        let more = try ProcessRunner.run("/usr/bin/env", [ToolRequirement.python, "-m", "varlink.cli", "call", "--more", "\(address)/io.moviesd.Movies.Search", #"{"query": "matrix"}"#])
        #expect(more.status == 0, "\(more.stderr)")
        #expect(more.stdout.components(separatedBy: "\"origin\"").count - 1 == 2, "expected cached then fresh: \(more.stdout)")

        let bad = try ProcessRunner.run("/usr/bin/env", [ToolRequirement.python, "-m", "varlink.cli", "call", "\(address)/io.moviesd.Movies.Search", #"{"query": 42}"#])
        // varlink.cli prints an error reply and still exits 0: assert on the error itself.
        #expect((bad.stdout + bad.stderr).contains("org.varlink.service.InvalidParameter"))
        #expect((bad.stdout + bad.stderr).contains("query"))
    }

    @Test("READY=1 reaches NOTIFY_SOCKET and SIGTERM exits 0 with STOPPING=1 and an intact database")
    func notifyAndGracefulShutdown() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        let receiver = try DatagramReceiver(path: sandbox.directory.appendingPathComponent("notify.sock").path)
        defer { receiver.close() }
        try sandbox.startStub()
        try sandbox.startDaemon(environment: ["NOTIFY_SOCKET": receiver.path])
        let ready = BackgroundProcess.waitUntil { receiver.received.contains { $0.contains("READY=1") } }
        #expect(ready, "got \(receiver.received)")
        #expect(try sandbox.movies(["search", "matrix"]).status == 0)

        let status = sandbox.daemon?.stop(signal: SIGTERM, timeout: ProcessDeadline.seconds)
        #expect(status == 0)
        #expect(BackgroundProcess.waitUntil { receiver.received.contains { $0.contains("STOPPING=1") } })
        let check = try ProcessRunner.run("/usr/bin/sqlite3", [sandbox.databasePath, "PRAGMA integrity_check;"])
        #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
    }

    @Test("a SIGTERM the moment the socket appears is a clean stop (exit 0), not death by signal (143)")
    func sigtermAsSoonAsTheSocketExists() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        try sandbox.startStub()
        // Before: the socket was bound before the SIGTERM handler was installed; a client (or
        // systemd) signalling in that window killed the daemon (seen as 143 under stress-ng).
        for round in 0..<10 {
            try? FileManager.default.removeItem(atPath: sandbox.socketPath)
            let daemon = try BackgroundProcess(
                BinaryLocator.path("moviesd"),
                ["--socket", sandbox.socketPath, "--database", sandbox.databasePath, "--remote-url", "http://127.0.0.1:\(sandbox.stubPort)/3/"],
                environment: ["MOVIESD_TMDB_TOKEN": Sandbox.token], logDirectory: sandbox.directory, name: "moviesd-race-\(round)")
            // Poll without sleeping: signal as close to the socket's appearance as we can.
            let deadline = Date().addingTimeInterval(ProcessDeadline.seconds)
            while !FileManager.default.fileExists(atPath: sandbox.socketPath), daemon.isRunning, Date() < deadline { sched_yield() }
            #expect(daemon.stop(signal: SIGTERM, timeout: ProcessDeadline.seconds) == 0, "round \(round): \(daemon.stderr)")
        }
    }

    @Test("under umask 022 the daemon's files are 0600 and the directory it creates for them 0700; the socket stays 0666")
    func filesAreTheDaemonUsersAlone() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        try sandbox.startStub()
        let data = sandbox.directory.appendingPathComponent("data").path
        // Before: the files followed the umask (0644 as root outside systemd).
        let daemon = try BackgroundProcess(
            "/bin/sh",
            ["-c", "umask 022; exec \"$0\" \"$@\"", BinaryLocator.path("moviesd"), "--socket", sandbox.socketPath, "--database", data + "/cache.sqlite3",
             "--remote-url", "http://127.0.0.1:\(sandbox.stubPort)/3/"],
            environment: ["MOVIESD_TMDB_TOKEN": Sandbox.token], logDirectory: sandbox.directory, name: "moviesd-umask")
        defer { _ = daemon.stop(signal: SIGTERM, timeout: ProcessDeadline.seconds) }
        #expect(BackgroundProcess.waitUntil { UnixSocketProbe.acceptsConnections(sandbox.socketPath) || !daemon.isRunning })
        #expect(try sandbox.movies(["search", "matrix"]).status == 0)
        func mode(_ path: String) -> mode_t? {
            var status = stat()
            return stat(path, &status) == 0 ? status.st_mode & 0o777 : nil
        }
        #expect(mode(data) == 0o700)
        for name in ["cache.sqlite3", "cache.sqlite3-wal", "state.sqlite3"] {
            #expect(mode(data + "/" + name) == 0o600, "\(name): \(String(mode(data + "/" + name) ?? 0, radix: 8))")
        }
        #expect(mode(sandbox.socketPath) == 0o666)
    }

    @Test("the daemon leaves nothing in its user's home (Foundation's URL cache and cookie directories)")
    func leavesTheHomeDirectoryAlone() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        let home = sandbox.directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try sandbox.startStub()
        // Before: ~/.cache/org.swift.foundation.URLCache/moviesd and ~/.local/share/<dir> appeared.
        try sandbox.startDaemon(environment: ["HOME": home.path])
        #expect(try sandbox.movies(["search", "matrix"]).status == 0)
        #expect(sandbox.daemon?.stop(signal: SIGTERM, timeout: ProcessDeadline.seconds) == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == [])
    }

    @Test("socket activation: systemd-socket-activate hands moviesd its listening socket")
    func socketActivation() async throws {
        let tool = "/usr/bin/systemd-socket-activate"
        guard ToolRequirement.require(ToolRequirement.exists(tool), "systemd-socket-activate (apt-get install systemd)") else { return }
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        try sandbox.startStub()
        let activator = try BackgroundProcess(
            tool,
            ["-l", sandbox.socketPath, "-E", "MOVIESD_TMDB_TOKEN=\(Sandbox.token)", BinaryLocator.path("moviesd"),
             "--database", sandbox.databasePath, "--remote-url", "http://127.0.0.1:\(sandbox.stubPort)/3/"],
            logDirectory: sandbox.directory, name: "activate"
        )
        defer { activator.stop() }
        #expect(BackgroundProcess.waitUntil { UnixSocketProbe.acceptsConnections(sandbox.socketPath) })
        let result = try sandbox.movies(["status", "--json"])
        #expect(result.status == 0, "\(result.stderr) \(activator.stderr)")
        #expect(result.stdout.contains("\"version\""))
    }

    @Test("socket-activated, moviesd never creates or writes its socket's directory (a root-owned /run/moviesd)")
    func socketActivationNeedsNoSocketDirectory() async throws {
        let tool = "/usr/bin/systemd-socket-activate"
        guard ToolRequirement.require(ToolRequirement.exists(tool), "systemd-socket-activate (apt-get install systemd)") else { return }
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        try sandbox.startStub()
        // A --socket whose directory cannot exist (under a regular file): even root cannot create it,
        // so a daemon that still prepared the socket's directory would exit 73 here.
        let blocker = sandbox.directory.appendingPathComponent("not-a-directory").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let activator = try BackgroundProcess(
            tool,
            ["-l", sandbox.socketPath, "-E", "MOVIESD_TMDB_TOKEN=\(Sandbox.token)", BinaryLocator.path("moviesd"),
             "--socket", blocker + "/moviesd/io.moviesd.Movies",
             "--database", sandbox.databasePath, "--remote-url", "http://127.0.0.1:\(sandbox.stubPort)/3/"],
            logDirectory: sandbox.directory, name: "activate-readonly"
        )
        defer { activator.stop() }
        #expect(BackgroundProcess.waitUntil { UnixSocketProbe.acceptsConnections(sandbox.socketPath) })
        let result = try sandbox.movies(["status", "--json"])
        #expect(result.status == 0, "\(result.stderr) \(activator.stderr)")
        #expect(result.stdout.contains("\"version\""))
    }

    @Test("a second daemon on the same database refuses to start, clearly")
    func secondDaemonRefused() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let second = try ProcessRunner.run(
            BinaryLocator.path("moviesd"),
            ["--socket", sandbox.directory.appendingPathComponent("other.sock").path, "--database", sandbox.databasePath],
            timeout: ProcessDeadline.seconds
        )
        #expect(second.status != 0)
        #expect(second.stderr.contains(sandbox.databasePath))
    }

    @Test("a bad config file fails at start with one line naming the file and line")
    func badConfig() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        let config = sandbox.directory.appendingPathComponent("bad.conf")
        try Data("[Daemon]\nLogLevel=info\nNoSuchKey=1\n".utf8).write(to: config)
        let result = try ProcessRunner.run(BinaryLocator.path("moviesd"), ["--config", config.path, "--socket", sandbox.socketPath, "--database", sandbox.databasePath], timeout: ProcessDeadline.seconds)
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("\(config.path):3"))
        #expect(!result.stderr.hasPrefix("<"), "no journal prefix on a terminal or a file")

        // Under systemd (stderr is the journal): the same line at priority err, so that
        // `journalctl -p err -u moviesd` shows it.
        let journal = try ProcessRunner.run(
            BinaryLocator.path("moviesd"), ["--config", config.path, "--socket", sandbox.socketPath, "--database", sandbox.databasePath],
            environment: ["JOURNAL_STREAM": "8:12345"], timeout: ProcessDeadline.seconds)
        #expect(journal.status == 78)
        #expect(journal.stderr.hasPrefix("<3>moviesd"), "\(journal.stderr)")
        #expect(journal.stderr.contains("\(config.path):3"))
    }

    @Test("a peer that is not authorised gets PermissionDenied for Purge; reads stay open")
    func authorization() async throws {
        let setpriv = "/usr/bin/setpriv"
        guard ToolRequirement.require(getuid() == 0, "root (to call as another user with setpriv)"),
              ToolRequirement.require(ToolRequirement.exists(setpriv), "setpriv (apt-get install util-linux)") else { return }
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        chmod(sandbox.directory.path, 0o755)
        try sandbox.startStub()
        try sandbox.startDaemon()
        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", BinaryLocator.path("movies"), "--socket", sandbox.socketPath]
        let purge = try ProcessRunner.run(setpriv, asNobody + ["cache", "purge", "--all"], environment: ["NO_COLOR": "1"])
        #expect(purge.status == 77, "\(purge.stdout) \(purge.stderr)")
        let status = try ProcessRunner.run(setpriv, asNobody + ["status"], environment: ["NO_COLOR": "1"])
        #expect(status.status == 0, "\(status.stderr)")
        let rootPurge = try sandbox.movies(["cache", "purge", "--all"])
        #expect(rootPurge.status == 0, "\(rootPurge.stderr)")
        // A socket directory this user may not search: 77 naming the path, not 69 "start it".
        chmod(sandbox.directory.path, 0o700)
        defer { chmod(sandbox.directory.path, 0o755) }
        let hidden = try ProcessRunner.run(setpriv, asNobody + ["status"], environment: ["NO_COLOR": "1"])
        #expect(hidden.status == 77, "\(hidden.stderr)")
        #expect(hidden.stderr.contains("not searchable") && hidden.stderr.contains(sandbox.socketPath), "\(hidden.stderr)")
        #expect(!hidden.stderr.contains("start"), "\(hidden.stderr)")
    }
    @Test("a oneway call from a client that closes at once is carried out (what `varlinkctl call --oneway` does)")
    func onewayCallsOfClientsThatCloseAtOnceAreCarriedOut() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let queries = (1...8).map { "oneway and gone \($0)" }
        for query in queries {
            let fd = UnixSocketProbe.connect(sandbox.socketPath)
            try #require(fd >= 0, "connect: \(String(cString: strerror(errno)))")
            let call = Array(#"{"method":"io.moviesd.Movies.SaveRecentQuery","parameters":{"query":"\#(query)"},"oneway":true}"#.utf8) + [0]
            let sent = call.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(fd)
            try #require(sent == call.count)
        }
        // Each is saved (a oneway call has no reply to wait for: the list is asked until it has them all).
        var recent = ""
        let saved = BackgroundProcess.waitUntil {
            recent = (try? sandbox.movies(["recent", "--json"]).stdout) ?? ""
            return queries.allSatisfy { recent.contains($0) }
        }
        #expect(saved, "recent queries: \(recent)")
    }

    @Test("out of descriptors, moviesd pauses accepting instead of spinning, and serves again once some are free")
    func outOfDescriptorsPausesAcceptingWithoutSpinning() async throws {
        let prlimit = "/usr/bin/prlimit"
        guard ToolRequirement.require(ToolRequirement.exists(prlimit), "prlimit (apt-get install util-linux)") else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let daemon = try #require(sandbox.daemon)
        // Once answered, so that what a search opens (databases, the stub's connection) is open.
        #expect(try sandbox.movies(["search", "matrix"]).status == 0)
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/fd").count
        let limited = try ProcessRunner.run(prlimit, ["--pid", "\(daemon.pid)", "--nofile=\(open + 4):\(open + 4)"])
        try #require(limited.status == 0, "\(limited.stderr)")
        // More connections than descriptors left: accept(2) fails with EMFILE while the others
        // wait in the listen backlog. A loop that kept polling the listener would spin a core.
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<32 {
            let fd = UnixSocketProbe.connect(sandbox.socketPath)
            try #require(fd >= 0, "connect: \(String(cString: strerror(errno)))")
            held.append(fd)
        }
        let before = try Self.cpuSeconds(of: daemon.pid)
        usleep(1_000_000)
        let spent = try Self.cpuSeconds(of: daemon.pid) - before
        #expect(spent < 0.3, "moviesd used \(spent) s of CPU in 1 s while out of descriptors")
        // Descriptors free again: new connections are accepted and answered.
        held.forEach { close($0) }
        held = []
        let after = try sandbox.movies(["search", "matrix"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(daemon.isRunning)
    }

    /// The CPU time `pid` has used (user and system), from /proc/PID/stat.
    private static func cpuSeconds(of pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = try #require(stat.split(separator: ")").last?.split(separator: " "))
        // Fields after the command name: utime and stime are the 12th and 13th (14 and 15 of the file).
        let user = try #require(Double(fields[11])), system = try #require(Double(fields[12]))
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
