import FoundationEssentials
import Glibc
@testable import MoviesCLI
import Testing
import Varlink

/// `movies metrics`: the text formats on standard output, `--json` as one line, `--textfile`
/// written atomically for node_exporter.
@Suite struct MetricsCommandTests {
    typealias Harness = MoviesCommandLineTests.Harness

    static func scripted(_ harness: Harness) {
        var report = MetricsExpositionTests.report
        report.describeReplies = [.object(["name": .string("io.moviesd.connections"), "type": .string("gauge"), "description": .string("Open")])]
        report.listReplies = [.object(["name": .string("io.moviesd.connections"), "value": .int(2)])]
        harness.client.metricsResult = .success(report)
    }

    @Test func printsThePrometheusTextFormatOrOpenMetrics() {
        let harness = Harness()
        Self.scripted(harness)
        #expect(harness.run("metrics") == .success)
        #expect(harness.output.text == MetricsExposition.text(MetricsExpositionTests.report, format: .prometheus))
        let open = Harness()
        Self.scripted(open)
        #expect(open.run("metrics", "--openmetrics") == .success)
        #expect(open.output.text.hasSuffix("# EOF\n"))
    }

    @Test func jsonIsOneLineOfTheRepliesAsReceived() throws {
        let harness = Harness()
        Self.scripted(harness)
        #expect(harness.run("metrics", "--json") == .success)
        let lines = harness.output.text.split(separator: "\n")
        #expect(lines.count == 1)
        let json = try JSONValue.parse(Array(lines[0].utf8))
        #expect(json["families"]?.arrayValue?.first?["type"] == .string("gauge"))
        #expect(json["metrics"]?.arrayValue?.first?["value"] == .int(2))
    }

    @Test func usageErrors() {
        for arguments in [["metrics", "extra"], ["metrics", "--textfile", "/tmp/x.prom", "--json"], ["metrics", "--textfile", "/tmp/"]] {
            let harness = Harness()
            Self.scripted(harness)
            #expect(harness.run(arguments) == .usage, "\(arguments)")
        }
    }

    @Test func aDaemonThatCannotBeReachedSaysSo() {
        let harness = Harness()
        harness.client.failEverything = .daemonUnreachable(socketPath: "/run/moviesd/io.moviesd.Movies", reason: "no socket there")
        #expect(harness.run("metrics") == .unavailable)
    }

    @Test func textfileWritesTheFileAtomicallyReadableByAllAndPrintsNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/moviesd.prom"
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let harness = Harness()
        Self.scripted(harness)
        // The refresh timer's umask: the file is still node_exporter's to read.
        let previous = umask(0o077)
        defer { umask(previous) }
        #expect(harness.run("metrics", "--textfile", path) == .success)
        #expect(harness.output.text.isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == MetricsExposition.text(MetricsExpositionTests.report, format: .prometheus))
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o644)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["moviesd.prom"], "no temporary file is left")
    }

    @Test func aFailedWriteLeavesTheFileAndNoTemporaryFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The target is a directory: the rename fails.
        try FileManager.default.createDirectory(atPath: directory + "/moviesd.prom", withIntermediateDirectories: true)
        try "x".write(toFile: directory + "/moviesd.prom/keep", atomically: false, encoding: .utf8)
        #expect(AtomicFileWriter.write(Array("new".utf8), to: directory + "/moviesd.prom") != nil)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory)) == ["moviesd.prom"])
        let missing = AtomicFileWriter.write(Array("new".utf8), to: directory + "/missing/moviesd.prom") ?? ""
        #expect(missing.hasPrefix("cannot write \(directory)/missing/moviesd.prom: No such file or directory") && !missing.contains(".tmp"), "\(missing)")
    }
}
