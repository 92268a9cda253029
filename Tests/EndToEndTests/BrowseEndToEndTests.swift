import Foundation
import MoviesTestSupport
import Testing

/// `movies browse` in a real terminal (issue 32): the real `movies` on a pseudo-terminal, read by
/// a VT100/xterm emulator (Python's pyte, `Scripts/browse_pty.py`), against a real `moviesd` and
/// the TMDB stub. The script polls the screen with a deadline for what it waits for.
@Suite("movies browse in a pseudo-terminal", .serialized, .blocksThreads)
struct BrowseEndToEndTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/browse_pty.py").path

    /// Runs the scenario against `sandbox`; the JSON object it printed, `nil` (with the failure
    /// recorded) when it failed.
    static func run(_ scenario: String, _ sandbox: Sandbox, extra: [String] = []) throws -> [String: Any]? {
        let result = try ProcessRunner.run(
            "/usr/bin/env",
            [ToolRequirement.python, script, scenario, "--movies", BinaryLocator.path("movies"), "--socket", sandbox.socketPath,
             "--control-port", String(sandbox.controlPort)] + extra,
            timeout: 120)
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last,
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            Issue.record("browse_pty.py \(scenario) failed (\(result.status)): \(result.stdout)\n\(result.stderr)")
            return nil
        }
        return object
    }

    static var available: Bool { ToolRequirement.require(ToolRequirement.pythonPyte, "python3's pyte module") }

    @Test("typing shows the cached matches at once, then TMDB's answer replaces them")
    func typeaheadThenFresh() async throws {
        guard Self.available else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        #expect(try sandbox.movies(["search", "matrix"]).status == 0)
        // TMDB answers late, so the local index's matches are on screen first.
        try await sandbox.setFaults(#"{"latencyMs": 1500}"#)
        guard let facts = try Self.run("typeahead", sandbox) else { return }
        let cached = try #require(facts["cached"] as? String)
        #expect(cached.hasPrefix("\"matri\": ") && cached.contains("matches among cached movies"), "\(cached)")
        #expect(facts["cachedHasMatrix"] as? Bool == true)
        let fresh = try #require(facts["fresh"] as? String)
        #expect(fresh.contains("results") && fresh.hasSuffix("fresh from TMDB"), "\(fresh)")
        #expect(facts["status"] as? Int == 130, "Ctrl-C exits 130")
    }

    @Test("scrolling past the end loads page 2 exactly once, keys pressed while it loads do not ask again")
    func pageTwoOnce() async throws {
        guard Self.available else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        guard let facts = try Self.run("paging", sandbox, extra: ["--query", "matrix"]) else { return }
        let before = try #require(facts["before"] as? Int)
        #expect(facts["after"] as? Int == before + 1, "one search request to TMDB for page 2: \(facts)")
        let status = try #require(facts["status"] as? String)
        #expect(status.contains("40 shown"), "\(status)")
        #expect((facts["selected"] as? [String])?.count == 1)
    }

    @Test("issue 46: the searches made while typing are no recent searches; opening a movie saves its query")
    func onlyACommittedQueryIsRecent() throws {
        guard Self.available else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        guard let facts = try Self.run("recents", sandbox) else { return }
        #expect(facts["afterTyping"] as? [String] == [], "blad, blade and matri were only typed: \(facts)")
        #expect(facts["afterOpening"] as? [String] == ["matri"], "\(facts)")
    }

    @Test("issue 46: the query is edited at the cursor with readline's keys")
    func queryEditing() throws {
        guard Self.available else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        guard let facts = try Self.run("editing", sandbox) else { return }
        #expect(facts["insert"] as? String == "Search: matrix", "Left, Left, r")
        #expect(facts["home"] as? String == "Search: the matrix", "Home, then typing")
        #expect(facts["wordBack"] as? String == "Search: he matrix", "End, Alt-B twice, Delete")
        #expect(facts["killLine"] as? String == "Search: h", "Ctrl-E, Ctrl-A, Ctrl-F, Ctrl-K")
    }

    @Test("issue 46: at 120x40 the list fills the screen, not 20 rows and 17 blank")
    func theListFillsTheScreen() throws {
        guard Self.available else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        guard let facts = try Self.run("fill", sandbox, extra: ["--query", "matrix"]) else { return }
        #expect(facts["listRows"] as? Int == 37, "\(facts)")
        #expect((facts["status"] as? String)?.contains("40 shown") == true, "\(facts)")
    }

    @Test("issue 46: the mouse in SGR mode: the wheel moves, a double click opens; off again at exit")
    func mouse() throws {
        guard Self.available else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        guard let facts = try Self.run("mouse", sandbox, extra: ["--query", "matrix"]) else { return }
        #expect(facts["enabled"] as? Bool == true)
        #expect(facts["disabled"] as? Bool == true)
        let clicked = try #require(facts["clicked"] as? String)
        #expect(!clicked.isEmpty)
        #expect(facts["opened"] as? String == clicked, "the double-clicked row's movie opened: \(facts)")
    }

    @Test("a resize redraws the screen at the new size")
    func resizeRedraws() throws {
        guard Self.available else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        guard let facts = try Self.run("resize", sandbox) else { return }
        #expect((facts["staleKeyRows"] as? [String])?.isEmpty == true, "no keys row left above the new bottom: \(facts)")
        #expect((facts["small"] as? String)?.hasPrefix("↑↓") == true)
    }

    @Test("Ctrl-C and SIGTERM give the terminal back as found (stty -g before and after)", arguments: [("ctrl-c", 130), ("sigterm", 143)])
    func terminalRestored(scenario: String, status: Int) throws {
        guard Self.available else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        guard let facts = try Self.run(scenario, sandbox) else { return }
        let modes = try #require(facts["modes"] as? [String])
        #expect(modes.count == 2, "\(facts)")
        #expect(modes.first == modes.last)
        #expect(facts["exit"] as? Int == status)
        #expect(facts["leftAlternateScreen"] as? Bool == true)
        #expect(facts["cursorShown"] as? Bool == true)
    }

    @Test("TERM=dumb or no terminal: refused with the usage status and a hint to use search")
    func refusesWithoutATerminal() throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let piped = try sandbox.movies(["browse", "matrix"])
        #expect(piped.status == 64)
        #expect(piped.stderr.contains("'movies search matrix'"), "\(piped.stderr)")
        #expect(piped.stdout.isEmpty)
        guard Self.available, let facts = try Self.run("dumb", sandbox) else { return }
        #expect(facts["status"] as? Int == 64)
        #expect((facts["screen"] as? String)?.contains("TERM is dumb") == true)
    }
}
