import Foundation
import MoviesTestSupport
import Testing

/// `movies metrics` against the real `moviesd` and `tmdb-stub`: its text read by a real parser
/// (prometheus_client's, the text format 0.0.4 and the strict OpenMetrics one; `.ci/run` installs
/// it, pinned) and its values checked against the calls made (issue 42).
@Suite("movies metrics, end to end", .serialized, .blocksThreads)
struct MetricsEndToEndTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/parse_metrics.py").path

    static var available: Bool { ToolRequirement.require(ToolRequirement.pythonPrometheusClient, "python3's prometheus_client module") }

    /// What prometheus_client read from `text` in `format`: families by name with their types,
    /// and every sample.
    struct Parsed {
        var families: [String: String]
        var samples: [(name: String, labels: [String: String], value: Double)]

        func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
            samples.first { $0.name == name && $0.labels == labels }?.value
        }
    }

    static func parse(_ text: String, format: String, in sandbox: Sandbox) throws -> Parsed {
        let file = sandbox.directory.appendingPathComponent("metrics-\(format).txt").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run("/usr/bin/env", [ToolRequirement.python, script, format, file])
        guard result.status == 0 else { throw SandboxError("prometheus_client refused the \(format) text: \(result.stderr)\n\(text)") }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let families = try #require(object["families"] as? [String: String])
        let samples = try #require(object["samples"] as? [[Any]]).compactMap { sample -> (String, [String: String], Double)? in
            guard sample.count == 3, let name = sample[0] as? String, let labels = sample[1] as? [String: String],
                  let value = (sample[2] as? NSNumber)?.doubleValue else { return nil }
            return (name, labels, value)
        }
        return Parsed(families: families, samples: samples.map { (name: $0.0, labels: $0.1, value: $0.2) })
    }

    @Test("the text formats parse, and their values are the calls made")
    func valuesMatchTheCallsMade() async throws {
        guard Self.available else { return }
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        // A miss (TMDB's answer), then the same from memory, then a movie.
        #expect(try sandbox.movies(["search", "matrix", "--json", "--fresh"]).status == 0)
        #expect(try sandbox.movies(["search", "matrix", "--json", "--cache-first"]).status == 0)
        #expect(try sandbox.movies(["show", "603", "--json"]).status == 0)
        // TMDB rate limits: a movie never cached fails with its Retry-After.
        try await sandbox.setFaults(#"{"rateLimit": {"share": 1, "retryAfter": 30}}"#)
        #expect(try sandbox.movies(["show", "550", "--json", "--fresh"]).status == 75)

        let text = try sandbox.movies(["metrics"])
        #expect(text.status == 0, "\(text.stderr)")
        let parsed = try Self.parse(text.stdout, format: "prometheus", in: sandbox)
        let search = "io.moviesd.Movies.Search"
        let movie = "io.moviesd.Movies.Movie"
        // prometheus_client names a counter family without its `_total` (its samples keep it).
        #expect(parsed.families["moviesd_calls"] == "counter")
        #expect(parsed.families["moviesd_call_duration_seconds"] == "histogram")
        #expect(parsed.families["moviesd_version_info"] == "gauge")
        #expect(parsed.value("moviesd_calls_total", ["method": search, "outcome": "ok"]) == 2)
        #expect(parsed.value("moviesd_calls_total", ["method": movie, "outcome": "ok"]) == 1)
        #expect(parsed.value("moviesd_calls_total", ["method": movie, "outcome": "io.moviesd.Movies.RemoteUnavailable"]) == 1)
        #expect(parsed.value("moviesd_answers_total", ["method": search, "origin": "network"]) == 1)
        #expect(parsed.value("moviesd_answers_total", ["method": search, "origin": "memory"]) == 1)
        #expect(parsed.value("moviesd_answers_total", ["method": movie, "origin": "network"]) == 1)
        #expect(parsed.value("moviesd_tmdb_requests_total", ["endpoint": "search", "status": "2xx"]) == 1)
        #expect(parsed.value("moviesd_tmdb_requests_total", ["endpoint": "movie", "status": "2xx"]) == 1)
        #expect(parsed.value("moviesd_tmdb_requests_total", ["endpoint": "movie", "status": "4xx"]) == 1)
        #expect(parsed.value("moviesd_tmdb_rate_limited_total") == 1)
        #expect(parsed.value("moviesd_call_duration_seconds_count", ["method": search]) == 2)
        #expect(parsed.value("moviesd_call_duration_seconds_bucket", ["method": search, "le": "+Inf"]) == 2)
        #expect(parsed.value("moviesd_cache_entries") == 2)
        #expect(parsed.value("moviesd_remote_state_info", ["remote_state": "rate_limited"]) == 1)
        // Every connection `movies` made was accepted: the five above and this one.
        #expect(parsed.value("moviesd_connections_accepted_total") ?? 0 >= 6)

        // The same values in OpenMetrics, read by the strict parser.
        let open = try sandbox.movies(["metrics", "--openmetrics"])
        #expect(open.status == 0, "\(open.stderr)")
        let strict = try Self.parse(open.stdout, format: "openmetrics", in: sandbox)
        #expect(strict.families["moviesd_calls"] == "counter")
        #expect(strict.families["moviesd_version"] == "info")
        #expect(strict.value("moviesd_calls_total", ["method": search, "outcome": "ok"]) == 2)
        #expect(strict.value("moviesd_tmdb_rate_limited_total") == 1)

        // For node_exporter: a file, written whole.
        let file = sandbox.directory.appendingPathComponent("moviesd.prom").path
        let written = try sandbox.movies(["metrics", "--textfile", file])
        #expect(written.status == 0 && written.stdout.isEmpty, "\(written.stderr)")
        let fromFile = try Self.parse(try String(contentsOfFile: file, encoding: .utf8), format: "prometheus", in: sandbox)
        #expect(fromFile.value("moviesd_tmdb_rate_limited_total") == 1)
    }

    @Test("--json is one line: the families and values as the daemon sent them")
    func jsonIsTheRepliesAsSent() throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let result = try sandbox.movies(["metrics", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result.stdout)
        #expect(lines.count == 1)
        let families = try #require(lines.first?["families"] as? [[String: Any]])
        let metrics = try #require(lines.first?["metrics"] as? [[String: Any]])
        #expect(families.contains { $0["name"] as? String == "io.moviesd.calls_total" && $0["type"] as? String == "counter" })
        #expect(metrics.contains { $0["name"] as? String == "io.moviesd.version" })
        #expect(metrics.allSatisfy { ($0["name"] as? String)?.hasPrefix("io.moviesd.") == true })
    }
}
