import CommandLineSupport
import Varlink

/// `movies metrics [--openmetrics] [--textfile PATH]`: the daemon's metrics (`io.systemd.Metrics`)
/// in Prometheus's text format, or OpenMetrics, on standard output or written atomically into a
/// file for node_exporter's textfile collector; `--json`: the families and values as the daemon
/// sent them, on one line.
struct MetricsCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "metrics",
        abstract: "Print the daemon's metrics for Prometheus (text format, or OpenMetrics).",
        usage: "metrics [--openmetrics] [--textfile PATH]",
        options: [
            .flag("--openmetrics", help: "Write OpenMetrics 1.0 text (ends with # EOF) instead of Prometheus's text format 0.0.4."),
            .option("--textfile", value: "PATH", help: "Write the metrics into PATH atomically (a temporary file, fsync, rename), mode 0644, for node_exporter's textfile collector (a *.prom file in its --collector.textfile.directory); print nothing."),
        ],
        discussion: """
            The metrics are the daemon's io.systemd.Metrics (systemd-report metrics io.moviesd \
            shows the same on systemd 260 and later): calls by method and outcome and their latency, \
            answers by origin, TMDB's requests, 429s and rate-limit waits, TMDB's state, the memory \
            and the cache, the local index, refreshes, the change feed, the outbox, storage faults, \
            connections, version and start time. Names are moviesd_… (io.moviesd.calls_total is \
            moviesd_calls_total). They are counts: no user, list or query is named. With --json, \
            one line: {"families": [Describe's replies], "metrics": [List's replies]}.
            """
    )

    let openMetrics: Bool
    let textfile: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("'metrics' takes no arguments", command: "metrics")
        }
        openMetrics = arguments.has("--openmetrics")
        textfile = arguments.value("--textfile")
        if let textfile, textfile.isEmpty || textfile.hasSuffix("/") {
            throw UsageError("--textfile takes the path of a file, e.g. /var/lib/prometheus/node-exporter/moviesd.prom", command: "metrics")
        }
        if textfile != nil, arguments.has("--json") {
            throw UsageError("choose one of --json and --textfile", command: "metrics")
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        let report: MetricsReport
        do {
            report = try context.client.metrics()
        } catch {
            return context.fail(error)
        }
        if context.json {
            context.answer(.object(["families": .array(report.describeReplies), "metrics": .array(report.listReplies)]))
            return .success
        }
        let text = MetricsExposition.text(report, format: openMetrics ? .openMetrics : .prometheus)
        if let textfile {
            if let failure = AtomicFileWriter.write(Array(text.utf8), to: textfile) { return context.fail(.other(failure)) }
            return .success
        }
        context.output.write(text)
        return .success
    }
}
