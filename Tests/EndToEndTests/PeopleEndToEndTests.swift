import Foundation
import MoviesTestSupport
import Testing

/// Issue 46 ("for people and packagers"), the people's half, on the real binaries: piped search
/// output a script can read, the poster's and TMDB page's addresses and `show --web`, the user's
/// configuration file, `-V`, a misspelt global option, `status` at 40 columns.
@Suite("movies for people (issue 46)", .serialized, .blocksThreads)
struct PeopleEndToEndTests {
    /// A fresh directory, removed by the caller.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("movies-people-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("piped, search prints one movie a line, tab-separated, no header, no padding")
    func pipedSearchIsTabSeparated() throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let result = try sandbox.movies(["search", "the", "matrix"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty)
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(fields.count == 4, "title, year, rating, id: \(line)")
            #expect(fields.last.flatMap { Int($0) } != nil, "the id alone in the last field: \(line)")
            #expect(fields.allSatisfy { $0 == $0.trimmingCharacters(in: .whitespaces) }, "no padding: \(line)")
        }
        #expect(!result.stdout.contains(" · ") && !result.stdout.contains("Title"), "no table, no header")
        #expect(lines.contains { $0.hasPrefix("The Matrix Revolutions\t2003\t") && $0.hasSuffix("\t605") }, "\(lines)")
        let table = try sandbox.movies(["search", "the", "matrix", "--format", "table"])
        #expect(table.stdout.contains("Title") && table.stdout.contains(" · "))
    }

    @Test("show gives the poster's address and the TMDB page; --web opens the page with xdg-open")
    func showAddressesAndWeb() throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let shown = try sandbox.movies(["show", "603"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("https://image.tmdb.org/t/p/original/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg"), "\(shown.stdout)")
        #expect(shown.stdout.contains("https://www.themoviedb.org/movie/603"))

        let bin = try Self.directory()
        defer { try? FileManager.default.removeItem(at: bin) }
        let record = bin.appendingPathComponent("opened").path
        let opener = bin.appendingPathComponent("xdg-open")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(record)'\n".write(to: opener, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
        let web = try sandbox.movies(["show", "603", "--web"], environment: ["PATH": bin.path + ":/usr/bin:/bin", "BROWSER": ""])
        #expect(web.status == 0, "\(web.stderr)")
        #expect(try String(contentsOfFile: record, encoding: .utf8) == "https://www.themoviedb.org/movie/603\n")
        #expect(web.stderr.contains("Opening https://www.themoviedb.org/movie/603"))

        let empty = try Self.directory()
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = try sandbox.movies(["show", "603", "--web"], environment: ["PATH": empty.path, "BROWSER": ""])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no program to open it: install xdg-utils (xdg-open) or set BROWSER"), "\(none.stderr)")
    }

    @Test("movies.conf: [Search] Policy= is the default, a flag wins, a bad file names its line")
    func configurationFile() throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let home = try Self.directory()
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("movies")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("movies.conf")
        try "[Search]\nPolicy=offline\n".write(to: file, atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": home.path, "MOVIES_CONFIG": "", "HOME": home.path]
        // MOVIES_CONFIG must be unset for the XDG path to count: the sandbox sets it empty.
        let configured = ["XDG_CONFIG_HOME": home.path, "HOME": home.path]
        let offline = try sandbox.movies(["search", "never", "cached", "before"], environment: configured.merging(["MOVIES_CONFIG": file.path]) { $1 })
        #expect(offline.status == 75, "Policy=offline: nothing cached, TMDB not asked: \(offline.stderr)")
        let fresh = try sandbox.movies(["search", "never", "cached", "before", "--fresh"], environment: configured.merging(["MOVIES_CONFIG": file.path]) { $1 })
        #expect(fresh.status == 0, "--fresh wins: \(fresh.stderr)")
        #expect(try sandbox.movies(["search", "another", "query"], environment: environment).status == 0, "MOVIES_CONFIG= reads no file")

        try "[Search]\nPolicy=offline\nLanguage = de-DE\nPolcy=fresh\n".write(to: file, atomically: true, encoding: .utf8)
        let bad = try sandbox.movies(["status"], environment: configured.merging(["MOVIES_CONFIG": file.path]) { $1 })
        #expect(bad.status == 78)
        #expect(bad.stderr.hasPrefix("movies: \(file.path):4: unknown key 'Polcy' in section [Search]; did you mean 'Policy'?"), "\(bad.stderr)")
    }

    @Test("the XDG configuration directory is read when MOVIES_CONFIG is unset")
    func xdgConfigHome() throws {
        let home = try Self.directory()
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("movies")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "[Output]\nColour=never\n".write(to: folder.appendingPathComponent("movies.conf"), atomically: true, encoding: .utf8)
        // Not through the sandbox, which sets MOVIES_CONFIG empty: /usr/bin/env -u unsets it.
        let result = try ProcessRunner.run("/usr/bin/env", ["-u", "MOVIES_CONFIG", "XDG_CONFIG_HOME=\(home.path)", BinaryLocator.path("movies"), "--socket", "/nonexistent.sock", "status"])
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("\(folder.path)/movies.conf:2: unknown key 'Colour' in section [Output]; did you mean 'Color'?"), "\(result.stderr)")
    }

    @Test("-V prints the version; a misspelt global option says which was meant")
    func versionAndMisspeltGlobalOption() throws {
        let short = try ProcessRunner.run(BinaryLocator.path("movies"), ["-V"])
        let long = try ProcessRunner.run(BinaryLocator.path("movies"), ["--version"])
        #expect(short.status == 0)
        #expect(short.stdout == long.stdout && short.stdout.hasPrefix("movies "))
        let misspelt = try ProcessRunner.run(BinaryLocator.path("movies"), ["--sokcet", "/tmp/x.sock", "status"], environment: ["MOVIES_CONFIG": ""])
        #expect(misspelt.status == 64)
        #expect(misspelt.stderr.hasPrefix("movies: unknown option '--sokcet'; did you mean '--socket'?"), "\(misspelt.stderr)")
        let help = try ProcessRunner.run(BinaryLocator.path("movies"), ["--help", "--width", "300"])
        #expect(!help.stdout.contains("for root"), "root follows the same rule as everyone")
    }

    @Test("status at 40 columns keeps each part of a path whole")
    func statusAt40Columns() throws {
        guard ToolRequirement.require(CLIOutputEndToEndTests.hasScript, "script(1)") else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        // A socket path as long as a user service's: /…/run/user/1000/moviesd/io.moviesd.Movies.
        let folder = sandbox.directory.appendingPathComponent("run/user/1000/moviesd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("io.moviesd.Movies").path
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: sandbox.socketPath)
        let status = try CLIOutputEndToEndTests.onTerminal(sandbox, columns: 40, ["--socket", path, "status"])
        #expect(status.status == 0, "\(status.lines)")
        #expect(status.lines.allSatisfy { $0.count <= 40 }, "\(status.lines)")
        let words = Set(status.lines.flatMap { $0.split(separator: " ").map(String.init) })
        #expect(words.contains("io.moviesd.Movies"), "the socket's name whole on a line: \(status.lines)")
        #expect(words.contains { $0.hasSuffix("/run/user/1000/moviesd/") || $0 == "user/1000/moviesd/" || $0.hasSuffix("/moviesd/") }, "\(status.lines)")
    }
}
