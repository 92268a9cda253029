import Foundation
import MoviesTestSupport
import Testing

/// The real `movies` through a pipe, into a file and on a pseudo-terminal (issue 28): nothing is
/// lost where scripts read it, and a terminal gets output fitted to its width, wrapped, not cut.
@Suite("movies output in pipes, files and terminals", .serialized, .blocksThreads)
struct CLIOutputEndToEndTests {
    /// The page-2 answer to "007" TMDB gave (a recording): it holds a title longer than 80 columns.
    static let recording = "jellyfin__TMDbLib/bodies/search-movie-007-page-2.body.json"
    static let longTitle = "Tobor The 8th Man The Movie - Samantha 007 and The Light That Burned"

    static func startWithRecording() throws -> Sandbox? {
        let file = Fixtures.url(recording)
        guard ToolRequirement.require(FileManager.default.fileExists(atPath: file.path), "the TMDB recordings at \(Fixtures.directory.path) (set MOVIESD_FIXTURES)") else { return nil }
        let sandbox = try Sandbox()
        try sandbox.startStub(["--recording", "/3/search/movie?query=007&page=2=\(file.path)"])
        try sandbox.startDaemon()
        return sandbox
    }

    /// Runs `movies` with `arguments` piped into `reader` (cat(1)).
    static func piped(_ sandbox: Sandbox, _ arguments: [String], into reader: String = "cat", environment: [String: String] = [:]) throws -> ProcessResult {
        let command = ([BinaryLocator.path("movies"), "--socket", sandbox.socketPath] + arguments).map(shellQuoted).joined(separator: " ")
        var env = ["NO_COLOR": "1", "MOVIES_CONFIG": ""]
        for (key, value) in environment { env[key] = value }
        return try ProcessRunner.run("/bin/sh", ["-c", command + " | " + reader], environment: env)
    }

    /// Runs `movies` with `arguments` on a pseudo-terminal of `columns` and `rows` (script(1),
    /// stty(1)); its output with carriage returns and cursor movements taken out, as lines, and as
    /// the terminal got it. No pager unless `environment` names one.
    static func onTerminal(_ sandbox: Sandbox, columns: Int, rows: Int = 500, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, lines: [String], raw: String) {
        let movies = ([BinaryLocator.path("movies"), "--socket", sandbox.socketPath] + arguments).map(shellQuoted).joined(separator: " ")
        var env = ["NO_COLOR": "1", "COLUMNS": "", "SHELL": "/bin/sh", "TERM": "xterm", "MOVIES_CONFIG": ""]
        for (key, value) in environment { env[key] = value }
        // The pager variables the test does not set are unset (not inherited), none set means none.
        let pagers = ["MOVIES_PAGER", "PAGER"]
        if pagers.allSatisfy({ environment[$0] == nil }) { env["MOVIES_PAGER"] = "" }
        let unset = pagers.filter { environment[$0] == nil && env[$0] == nil }.map { "unset \($0); " }.joined()
        let result = try ProcessRunner.run("/usr/bin/script", ["-qec", "\(unset)stty cols \(columns) rows \(rows) && exec \(movies)", "/dev/null"], environment: env)
        let plain = withoutControlSequences(result.stdout)
        return (result.status, plain.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }, result.stdout)
    }

    /// `text` without carriage returns and CSI sequences (`ESC [ … letter`: cursor up, clear).
    static func withoutControlSequences(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var inSequence = false
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            if inSequence {
                if scalar.properties.isAlphabetic { inSequence = false }
                continue
            }
            if scalar == "\u{1B}" {
                _ = iterator.next()  // "["
                inSequence = true
                continue
            }
            if scalar != "\r" { scalars.append(scalar) }
        }
        return String(scalars)
    }

    static func shellQuoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    static var hasScript: Bool { ToolRequirement.exists("/usr/bin/script") }

    @Test("piped and in a file, the 007 page keeps every title whole, one movie a line, whatever COLUMNS says")
    func pipedAndFileKeepEveryTitle() throws {
        guard let sandbox = try Self.startWithRecording() else { return }
        defer { sandbox.shutdown() }
        let file = try sandbox.movies(["search", "007", "--page", "2"], environment: ["COLUMNS": "40"])
        #expect(file.status == 0, "\(file.stderr)")
        let pipe = try Self.piped(sandbox, ["search", "007", "--page", "2"], environment: ["COLUMNS": "40"])
        for output in [file.stdout, pipe.stdout] {
            #expect(!output.contains("…"), "\(output)")
            let line = output.split(separator: "\n").first { $0.contains("Samantha 007") }
            #expect(line?.hasPrefix(Self.longTitle) == true, "\(output)")
            #expect(line?.hasSuffix("\t1610821") == true, "one movie a line, the id last: \(line ?? "")")
        }
        // The same records either way (no summary: its freshness differs, the second answer was cached).
        #expect(file.stdout == pipe.stdout)
    }

    @Test("on a terminal of 40, 80 and 200 columns every line fits, only titles are shortened, --width and COLUMNS override")
    func terminalFitsItsWidth() throws {
        guard Self.hasScript || ToolRequirement.require(false, "script(1) (util-linux)"), let sandbox = try Self.startWithRecording() else { return }
        defer { sandbox.shutdown() }
        for columns in [40, 80, 200] {
            let (status, lines, _) = try Self.onTerminal(sandbox, columns: columns, ["search", "007", "--page", "2"])
            #expect(status == 0)
            for line in lines { #expect(line.count <= columns, "\(columns): \(line)") }
            let row = lines.last { $0.contains("1610821") }
            #expect(row?.hasSuffix(" · 1610821") == true, "\(columns): the id is never cut: \(lines)")
            #expect(row?.contains(Self.longTitle) == (columns == 200), "\(columns): \(row ?? "")")
            if columns < 200 { #expect(row?.contains("…") == true) }
        }
        let narrowed = try Self.onTerminal(sandbox, columns: 200, ["--width", "40", "search", "007", "--page", "2"])
        for line in narrowed.lines { #expect(line.count <= 40, "--width 40: \(line)") }
        let columnsEnv = try Self.onTerminal(sandbox, columns: 200, ["search", "007", "--page", "2"], environment: ["COLUMNS": "40"])
        for line in columnsEnv.lines { #expect(line.count <= 40, "COLUMNS=40: \(line)") }
    }

    @Test("offline, the label says how many cached movies matched: whole in a pipe, wrapped on a 40-column terminal; status wraps")
    func offlineLabelAndStatusAreNeverCut() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        #expect(try sandbox.movies(["search", "matrix"]).status == 0)
        try await sandbox.setFaults(#"{"down": true}"#)
        let pipe = try Self.piped(sandbox, ["search", "revolutions", "matrix", "--format", "table"])
        let header = pipe.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.hasPrefix("\"revolutions matrix\": "), "\(pipe.stdout)")
        #expect(header.hasSuffix("— offline — 1 match among cached movies"), "\(header)")
        guard Self.hasScript || ToolRequirement.require(false, "script(1) (util-linux)") else { return }
        let terminal = try Self.onTerminal(sandbox, columns: 40, ["search", "revolutions", "matrix"])
        let text = terminal.lines.joined(separator: " ")
        #expect(text.contains("offline — 1 match among cached movies"), "\(terminal.lines)")
        // The warning on standard error is a message, left to the terminal; standard output fits.
        for line in terminal.lines where !line.hasPrefix("movies: ") { #expect(line.count <= 40, "\(line)") }
        let status = try Self.onTerminal(sandbox, columns: 40, ["status"])
        #expect(status.status == 0)
        for line in status.lines {
            #expect(line.count <= 40, "\(line)")
            #expect(!line.contains("…"), "status values wrap, never cut: \(line)")
        }
        #expect(status.lines.contains { $0.hasPrefix("Remote:") && $0.contains("offline") })
    }

    @Test("poster -o - refuses a terminal with a hint, and writes the bytes into a pipe")
    func posterBytesNeverGoToATerminal() throws {
        guard Self.hasScript || ToolRequirement.require(false, "script(1) (util-linux)") else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let terminal = try Self.onTerminal(sandbox, columns: 80, ["poster", "603", "-o", "-"])
        #expect(terminal.status == 64)
        #expect(terminal.lines.joined(separator: " ").contains("binary output can mess up your terminal"), "\(terminal.lines)")
        let pipe = try Self.piped(sandbox, ["poster", "603", "-o", "-"], into: "od -An -tx1 -N4")
        #expect(pipe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "89 50 4e 47", "a PNG: \(pipe.stdout) \(pipe.stderr)")
    }

    @Test("--color: auto colours a terminal unless NO_COLOR, always colours a pipe whatever NO_COLOR says, never never")
    func colorChoices() throws {
        guard Self.hasScript || ToolRequirement.require(false, "script(1) (util-linux)") else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let bold = "\u{1B}[1mThe Matrix"
        #expect(try Self.onTerminal(sandbox, columns: 80, ["search", "matrix"], environment: ["NO_COLOR": ""]).raw.contains(bold))
        #expect(!(try Self.onTerminal(sandbox, columns: 80, ["search", "matrix"], environment: ["NO_COLOR": "1"]).raw.contains("\u{1B}[1m")))
        #expect(!(try Self.onTerminal(sandbox, columns: 80, ["search", "matrix", "--color=never"], environment: ["NO_COLOR": ""]).raw.contains("\u{1B}[1m")))
        #expect(try Self.onTerminal(sandbox, columns: 80, ["search", "matrix", "--color=always"], environment: ["NO_COLOR": "1"]).raw.contains(bold))
        let piped = try Self.piped(sandbox, ["search", "matrix", "--color=always", "--format", "table"])
        #expect(piped.stdout.contains(bold), "\(piped.stdout)")
        #expect(!piped.stdout.contains("\u{1B}[J"), "colour, no cursor movement, in a pipe")
        #expect(!(try Self.piped(sandbox, ["search", "matrix"], environment: ["NO_COLOR": ""]).stdout.contains("\u{1B}")))
    }

    @Test("long output on a terminal goes through $MOVIES_PAGER or $PAGER; never piped or with --no-pager; a pager that cannot start leaves it to the terminal")
    func pager() throws {
        guard Self.hasScript || ToolRequirement.require(false, "script(1) (util-linux)") else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let recorded = sandbox.directory.appendingPathComponent("paged").path
        let other = sandbox.directory.appendingPathComponent("other").path
        let recorder = "cat > " + Self.shellQuoted(recorded)
        func take(_ path: String) -> String? {
            defer { try? FileManager.default.removeItem(atPath: path) }
            return try? String(contentsOfFile: path, encoding: .utf8)
        }

        let long = try Self.onTerminal(sandbox, columns: 80, rows: 10, ["search", "the"], environment: ["PAGER": recorder])
        #expect(long.status == 0)
        let paged = take(recorded)
        // A page of 20 movies, its header and the column titles: taller than 10 rows.
        #expect(paged?.hasPrefix("\"the\": ") == true, "\(paged ?? "nothing paged"); terminal: \(long.lines)")
        #expect((paged?.split(separator: "\n").count ?? 0) >= 22, "\(paged ?? "")")
        #expect(paged?.contains("\u{1B}[") == false, "no cursor movement into the pager")
        #expect(!long.lines.contains { $0.hasPrefix("Title ") }, "not on the terminal too: \(long.lines)")

        let help = try Self.onTerminal(sandbox, columns: 80, rows: 10, ["--help"], environment: ["PAGER": "cat > /dev/null", "MOVIES_PAGER": recorder])
        #expect(help.status == 0)
        #expect(take(recorded)?.contains("Commands:") == true, "MOVIES_PAGER overrides PAGER")

        let short = try Self.onTerminal(sandbox, columns: 80, rows: 200, ["search", "the"], environment: ["PAGER": recorder])
        #expect(take(recorded) == nil, "output that fits is not paged")
        #expect(short.lines.contains { $0.hasPrefix("Title ") })

        let refused = try Self.onTerminal(sandbox, columns: 80, rows: 10, ["search", "the", "--no-pager"], environment: ["PAGER": recorder])
        #expect(take(recorded) == nil, "--no-pager")
        #expect(refused.lines.contains { $0.hasPrefix("Title ") })

        let piped = try Self.piped(sandbox, ["--help"], environment: ["PAGER": recorder, "MOVIES_PAGER": "cat > " + Self.shellQuoted(other)])
        #expect(take(recorded) == nil && take(other) == nil, "never when piped")
        #expect(piped.stdout.contains("Commands:"))

        let broken = try Self.onTerminal(sandbox, columns: 80, rows: 10, ["search", "the"], environment: ["PAGER": "/nonexistent/pager"])
        #expect(broken.status == 0)
        #expect(broken.lines.contains { $0.hasPrefix("Title ") }, "written directly: \(broken.lines)")
    }
}
