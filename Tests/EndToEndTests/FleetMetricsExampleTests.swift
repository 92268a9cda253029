import Foundation
import MoviesTestSupport
import Testing

/// The metrics part of the fleet recipe (`etc/fleet`): Prometheus's own tool accepts the rules,
/// the scrape configuration and what `movies metrics` prints (`promtool check`, from Debian's
/// prometheus package, which `.ci/run` installs), and systemd accepts the minute timer's units.
/// The refresh's `ExecStartPost=` drop-in is run booted by `scripts/test-systemd`.
@Suite("etc/fleet metrics examples", .serialized, .blocksThreads)
struct FleetMetricsExampleTests {
    static let fleet = SystemdUnitTests.repositoryRoot.appendingPathComponent("etc/fleet")

    static var promtool: String? {
        ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var available: Bool { ToolRequirement.require(promtool != nil, "promtool (Debian's prometheus package)") }

    @Test func promtoolAcceptsTheRulesAndTheScrapeConfiguration() throws {
        guard Self.available, let promtool = Self.promtool else { return }
        let rules = try ProcessRunner.run(promtool, ["check", "rules", Self.fleet.appendingPathComponent("moviesd-rules.yml").path])
        #expect(rules.status == 0, "\(rules.stdout)\(rules.stderr)")
        // The configuration names the rules file beside it.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("prometheus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for file in ["prometheus-moviesd.yml", "moviesd-rules.yml"] {
            try FileManager.default.copyItem(at: Self.fleet.appendingPathComponent(file), to: directory.appendingPathComponent(file))
        }
        let config = try ProcessRunner.run(promtool, ["check", "config", directory.appendingPathComponent("prometheus-moviesd.yml").path])
        #expect(config.status == 0, "\(config.stdout)\(config.stderr)")
    }

    @Test func promtoolLintsWhatMoviesMetricsPrints() throws {
        guard Self.available, let promtool = Self.promtool else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        #expect(try sandbox.movies(["search", "matrix", "--json"]).status == 0)
        let metrics = try sandbox.movies(["metrics"])
        #expect(metrics.status == 0, "\(metrics.stderr)")
        // `check metrics` lints as well as parses: help on every family, units and suffixes.
        let check = try ProcessRunner.run(promtool, ["check", "metrics"], stdin: metrics.stdout)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test("systemd-analyze verify prints nothing for the minute timer", .enabled(if: SystemdUnitTests.runsAnalyzer, "systemd-analyze is not installed"))
    func theMinuteTimersUnitsVerify() throws {
        let analyzer = try SystemdUnitTests.requireAnalyzer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-units-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for unit in ["moviesd-metrics.service", "moviesd-metrics.timer"] {
            let text = try String(contentsOf: Self.fleet.appendingPathComponent(unit), encoding: .utf8)
            let movies = SystemdUnitTests.existingBinary(for: SystemdUnitTests.clientPath)
            try text.replacingOccurrences(of: "ExecStart=/usr/bin/movies", with: "ExecStart=\(movies)")
                .write(to: directory.appendingPathComponent(unit), atomically: true, encoding: .utf8)
        }
        for unit in ["moviesd-metrics.service", "moviesd-metrics.timer"] {
            let result = try SystemdUnitTests.run(analyzer, ["verify", "--no-pager", "--man=no", directory.appendingPathComponent(unit).path])
            #expect(result.output == "", "systemd-analyze verify \(unit) printed:\n\(result.output)")
            #expect(result.status == 0)
        }
    }
}
