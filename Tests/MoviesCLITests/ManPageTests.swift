import CommandLineSupport
import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import Testing

/// The documentation matches the program (issue 28, item 6): every option `movies --help` and each
/// command's help list is in movies(1), and every command the README and docs/ name exists.
@Suite struct ManPageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        let data = try #require(FileManager.default.contents(atPath: root.appendingPathComponent(path).path), "\(path) is missing")
        return String(decoding: data, as: UTF8.self)
    }

    /// `--max-stale` as roff writes it: `\-\-max\-stale`.
    static func roff(_ name: String) -> String { name.split(separator: "-", omittingEmptySubsequences: false).joined(separator: "\\-") }

    @Test func everyOptionInTheHelpIsInTheManPage() throws {
        let man = try Self.text("man/movies.1")
        for option in ArgumentParser.globalOptions {
            for name in option.names { #expect(man.contains(Self.roff(name)), "movies(1) lacks the global option \(name)") }
        }
        for command in MoviesCommandLine.commandSpecs {
            #expect(man.contains(command.name), "movies(1) lacks the command \(command.name)")
            for option in command.options {
                for name in option.names {
                    #expect(man.contains(Self.roff(name)), "movies(1) lacks \(name) of 'movies \(command.name)'")
                }
            }
        }
    }

    /// The README and the pages of docs/ it leads to (issue 46 moved the client's table to docs/using.md).
    static func documents() throws -> [(name: String, text: String)] {
        let pages = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return try (["README.md"] + pages).map { ($0, try text($0)) }
    }

    @Test func everyCommandTheReadmeAndDocsNameExists() throws {
        let commands = Set(MoviesCommandLine.commandSpecs.map(\.name))
        var tableRows = 0
        for (name, text) in try Self.documents() {
            let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `movies ") }.compactMap { line in
                line.dropFirst("| `movies ".count).split(whereSeparator: { $0 == " " || $0 == "`" }).first.map(String.init)
            }
            tableRows += rows.count
            // And every example: a line of a code block that starts with `movies X` (or `$ movies X`).
            var inBlock = false
            let examples = text.split(separator: "\n").compactMap { line -> String? in
                if line.hasPrefix("```") { inBlock.toggle() }
                let command = line.hasPrefix("$ ") ? line.dropFirst(2) : line[...]
                guard inBlock, command.hasPrefix("movies ") else { return nil }
                return command.dropFirst("movies ".count).split(separator: " ").first.map(String.init)
            }.filter { !$0.hasPrefix("-") }
            for command in rows + examples { #expect(commands.contains(command), "\(name) names 'movies \(command)', which does not exist") }
            #expect(!text.contains("movies poster PATH"), "poster takes ID|PATH")
        }
        #expect(tableRows >= 8, "\(tableRows)")
    }

    /// Every exit code `movies --help` lists is in movies(1)'s EXIT STATUS; 77 says in both (and
    /// in `movies help account`) that it also means nobody is signed in.
    @Test func theHelpsExitCodesAreTheManPages() throws {
        let man = try Self.text("man/movies.1")
        let status = try #require(man.components(separatedBy: ".SH EXIT STATUS").dropFirst().first?.components(separatedBy: "\n.SH ").first)
        let entries = status.components(separatedBy: ".TP\n.B ").dropFirst().map { $0.replacing("\n", with: " ") }
        for (code, meaning) in HelpText.exitCodes {
            let entry = try #require(entries.first { $0.hasPrefix(code + " ") }, "movies(1) lacks exit code \(code)")
            if code == "77" {
                #expect(entry.contains("nobody is signed in"), "\(entry)")
                #expect(meaning.contains("nobody is signed in"), "movies --help: \(meaning)")
            }
        }
        let main = HelpText.main(commands: MoviesCommandLine.commandSpecs, width: 400)
        #expect(main.contains("77") && main.contains("nobody is signed in"))
        let account = try #require(MoviesCommandLine.commandType(named: "account"))
        #expect(HelpText.command(account.spec, width: 400).contains("77 when nobody is signed in"))
    }

    /// docs/using.md said a search with nothing found locally while TMDB cannot be asked fails
    /// with `NotCached`; it is `RemoteUnavailable` (`NotCached` is `--offline`'s).
    @Test func usingNamesTheErrorsALocalSearchReallyEndsWith() throws {
        let page = try Self.text("docs/using.md").replacing("\n", with: " ")
        let sentences = page.components(separatedBy: ". ")
        let nothingFound = try #require(sentences.first { $0.contains("Nothing found locally") })
        #expect(nothingFound.contains("`RemoteUnavailable` when TMDB could not be reached"), "\(nothingFound)")
        for sentence in sentences where sentence.contains("`NotCached`") {
            #expect(sentence.contains("--offline"), "NotCached is the offline policy's: \(sentence)")
        }
    }

    @Test func theConfigurationPageNamesNoOtherVersion() throws {
        let page = try Self.text("man/moviesd.conf.5")
        // Every "moviesd X.Y…" the page names is this release (it once said 0.2 in 0.1.0).
        for line in page.split(separator: "\n") where line.contains("moviesd 0.") {
            #expect(line.contains("moviesd \(MoviesdRelease.version)"), "\(line)")
        }
    }

    /// `-q, --quiet` appeared twice in `movies help refresh`.
    @Test(arguments: MoviesCommandLine.commandSpecs.map(\.name))
    func noOptionIsListedTwice(command: String) throws {
        let spec = try #require(MoviesCommandLine.commandSpecs.first { $0.name == command })
        let help = HelpText.command(spec)
        let options = help.split(separator: "\n").filter { $0.hasPrefix("  -") }.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        #expect(Set(options).count == options.count, "\(options)")
    }

    @Test(arguments: [40, 80, 200])
    func helpIsWrappedToTheWidth(width: Int) {
        var texts = [HelpText.main(commands: MoviesCommandLine.commandSpecs, width: width)]
        texts += MoviesCommandLine.commandSpecs.map { HelpText.command($0, width: width) }
        for text in texts {
            for line in text.split(separator: "\n") { #expect(DisplayWidth.of(line) <= width, "\(line)") }
        }
        // Nothing is cut: the help's words are all there.
        let words = texts[0].split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(words.contains("when set and not empty, never use colour"), "\(words)")
    }
}
