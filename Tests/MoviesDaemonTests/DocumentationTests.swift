import Foundation
import MoviesDomain
import Testing
@testable import MoviesDaemon

/// The README and `docs/` say what the programs do (issue 46): the README stays short and leads to
/// every page of `docs/`, every link resolves, every script, option, setting, method and error the
/// pages name exists, and the figures they give (versions, completion shells) are the repository's.
/// The commands of `movies` they name are checked by `ManPageTests` (MoviesCLITests), the package
/// sizes by `scripts/test-systemd`, which builds the package.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        let data = try #require(FileManager.default.contents(atPath: root.appendingPathComponent(path).path), "\(path) is missing")
        return String(decoding: data, as: UTF8.self)
    }

    /// `docs/*.md`, by their paths in the repository.
    static var pages: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// The README and every page of `docs/`.
    static var documents: [String] { ["README.md"] + pages }

    @Test func theReadmeIsShortAndLeadsToEveryPage() throws {
        let readme = try Self.text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines < 250, "README.md has \(lines) lines")
        #expect(Self.pages.count >= 4, "\(Self.pages)")
        for page in Self.pages { #expect(readme.contains("](\(page))"), "README.md does not link \(page)") }
    }

    /// The two commands a newcomer runs, and the one `.ci/run` calls "the README's test command".
    @Test func theReadmesTwoCommandsAreTheScriptsCIRuns() throws {
        let readme = try Self.text("README.md")
        let commands = Self.codeLines(readme).compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(Array(commands.prefix(2)) == ["scripts/demo", "scripts/test"], "\(commands)")
        for script in ["scripts/demo", "scripts/test"] {
            #expect(FileManager.default.isExecutableFile(atPath: Self.root.appendingPathComponent(script).path), "\(script)")
        }
        let ci = try Self.text(".ci/run")
        #expect(ci.contains("run the README's test command"))
        #expect(ci.split(separator: "\n").contains("scripts/test"), ".ci/run does not run scripts/test")
    }

    @Test(arguments: documents)
    func everyLinkResolves(document: String) throws {
        let text = try Self.text(document)
        let base = URL(fileURLWithPath: document).deletingLastPathComponent().relativePath
        for match in text.matches(of: /\]\(([^)\s]+)\)/) {
            let target = String(match.output.1)
            if target.hasPrefix("http://") || target.hasPrefix("https://") { continue }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let path = parts[0].isEmpty ? document : Self.normalized(base == "." ? parts[0] : "\(base)/\(parts[0])")
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(document): \(target)")
            if parts.count == 2, path.hasSuffix(".md") {
                let anchors = Self.anchors(try Self.text(path))
                #expect(anchors.contains(parts[1]), "\(document): \(target): no heading #\(parts[1]) in \(path)")
            }
        }
    }

    @Test(arguments: documents)
    func everyScriptNamedExists(document: String) throws {
        let text = try Self.text(document)
        for match in text.matches(of: /\bscripts\/([A-Za-z0-9_.\/-]*[A-Za-z0-9_])/) {
            let path = "scripts/" + match.output.1
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(document) names \(path)")
        }
    }

    /// `[Section] Key=` in the pages, for a section of moviesd.conf, is a setting of the schema.
    @Test(arguments: documents)
    func everySettingNamedExists(document: String) throws {
        let text = try Self.text(document).replacingOccurrences(of: "`", with: "")
        for match in text.matches(of: /\[([A-Z][a-z]+)\] ([A-Za-z]+)=/) where ConfigurationSchema.sections.contains(String(match.output.1)) {
            let (section, key) = (String(match.output.1), String(match.output.2))
            #expect(ConfigurationSchema.setting(section: section, key: key) != nil, "\(document): [\(section)] \(key)= is no setting")
        }
    }

    /// The options of `moviesd [--…]` in the pages are the daemon's.
    @Test func everyDaemonOptionNamedExists() throws {
        for document in Self.documents {
            for line in try Self.text(document).split(separator: "\n") where line.contains("moviesd [--") {
                for option in line.matches(of: /\[(--[a-z-]+)/) {
                    #expect(DaemonArguments.usage.contains("  \(option.output.1) "), "\(document): moviesd \(option.output.1)")
                }
            }
        }
    }

    /// A method or error the interface page names (`Search(…)`, `RemoteRejected(…)`) is declared in
    /// the interface file.
    @Test func everyMethodAndErrorTheInterfacePageNamesIsDeclared() throws {
        let page = try Self.text("docs/interface.md")
        let idl = MoviesInterface.description
        var named = 0
        for match in page.matches(of: /`([A-Z][A-Za-z]+)\(/) {
            let name = String(match.output.1)
            named += 1
            #expect(idl.contains("method \(name)(") || idl.contains("error \(name) ") || idl.contains("error \(name)("),
                    "docs/interface.md names \(name), which io.moviesd.Movies does not declare")
        }
        #expect(named >= 10, "\(named)")
    }

    /// Figures the pages give that a release changes: the package's version.
    @Test(arguments: documents)
    func versionsAreThisRelease(document: String) throws {
        let text = try Self.text(document)
        for match in text.matches(of: /moviesd_([0-9]+\.[0-9]+\.[0-9]+)_amd64|Version: +([0-9]+\.[0-9]+\.[0-9]+)/) {
            let version = String(match.output.1 ?? match.output.2 ?? "")
            #expect(version == MoviesdRelease.version, "\(document): \(match.output.0)")
        }
    }

    /// The shells the README says completion is shipped for are those of `completions/`, each
    /// installed by the package.
    @Test func theCompletionShellsAreThoseShipped() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("completions").path)
        let shells = Set(files.compactMap { name -> String? in
            if name.hasSuffix(".bash") { return "bash" }
            if name.hasSuffix(".fish") { return "fish" }
            if name.hasPrefix("_") { return "zsh" }
            return nil
        })
        #expect(shells.count == files.count, "\(files)")
        let readme = try Self.text("README.md").replacingOccurrences(of: "\n", with: " ")
        let sentence = try #require(readme.firstMatch(of: /[Cc]ompletion for ([a-z, ]+ and [a-z]+)/))
        let named = Set(sentence.output.1.replacingOccurrences(of: " and ", with: ", ").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(named == shells, "README.md names \(named.sorted()), completions/ has \(shells.sorted())")
        let package = try Self.text("scripts/package")
        for file in files { #expect(package.contains("completions/\(file)"), "scripts/package does not install completions/\(file)") }
    }

    // MARK: helpers

    /// The lines of the text's ``` code blocks.
    static func codeLines(_ text: String) -> [String] {
        var inBlock = false
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock.toggle()
            } else if inBlock {
                lines.append(String(line))
            }
        }
        return lines
    }

    /// The anchors of a page's headings, as GitHub makes them: lower case, spaces to hyphens,
    /// punctuation other than hyphens and underscores dropped.
    static func anchors(_ text: String) -> Set<String> {
        var result = Set<String>()
        var inBlock = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { inBlock.toggle() }
            guard !inBlock, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            let kept = title.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == " " || $0 == "-" || $0 == "_" }
            result.insert(String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-"))
        }
        return result
    }

    /// `docs/../LICENSE` as `LICENSE`.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == ".." { if !parts.isEmpty { parts.removeLast() } } else if part != "." { parts.append(part) }
        }
        return parts.joined(separator: "/") + (path.hasSuffix("/") ? "/" : "")
    }
}
