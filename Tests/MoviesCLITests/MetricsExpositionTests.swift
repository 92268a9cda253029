import FoundationEssentials
@testable import MoviesCLI
import Testing
import Varlink

/// `io.systemd.Metrics` families written as Prometheus reads them, in the text format 0.0.4 and
/// OpenMetrics: names, types, histograms and summaries reassembled, string families as info
/// metrics, escaping. (The end-to-end tests parse both with prometheus_client's parsers.)
@Suite struct MetricsExpositionTests {
    static let report: MetricsReport = {
        var report = MetricsReport()
        report.families = [
            MetricFamily("io.moviesd.calls_total", .counter, "Calls \"ended\""),
            MetricFamily("io.moviesd.connections", .gauge, "Open\nnow"),
            MetricFamily("io.moviesd.remote_state", .string, "TMDB's state"),
            MetricFamily("io.moviesd.wait_seconds_bucket", .counter, "Waits: durations up to le"),
            MetricFamily("io.moviesd.wait_seconds_count", .counter, "Waits: how many"),
            MetricFamily("io.moviesd.wait_seconds_sum", .counter, "Waits: the seconds added up"),
            MetricFamily("io.moviesd.run_seconds_count", .counter, "Runs: how many"),
            MetricFamily("io.moviesd.run_seconds_sum", .counter, "Runs: the seconds added up"),
        ]
        report.metrics = [
            Metric("io.moviesd.calls_total", .unsigned(3), fields: [.init("method", "io.moviesd.Movies.Search"), .init("outcome", "ok")]),
            Metric("io.moviesd.calls_total", .unsigned(1), fields: [.init("method", "a\"b\\c\nd"), .init("outcome", "x")]),
            Metric("io.moviesd.connections", .unsigned(2)),
            Metric("io.moviesd.remote_state", .string("online")),
            Metric("io.moviesd.run_seconds_count", .unsigned(2)),
            Metric("io.moviesd.run_seconds_sum", .double(1.5)),
            Metric("io.moviesd.wait_seconds_bucket", .unsigned(1), fields: [.init("le", "0.5"), .init("method", "m")]),
            Metric("io.moviesd.wait_seconds_bucket", .unsigned(2), fields: [.init("le", "+Inf"), .init("method", "m")]),
            Metric("io.moviesd.wait_seconds_count", .unsigned(2), fields: [.init("method", "m")]),
            Metric("io.moviesd.wait_seconds_sum", .double(0.75), fields: [.init("method", "m")]),
        ]
        return report
    }()

    @Test func thePrometheusTextFormat() {
        #expect(MetricsExposition.text(Self.report, format: .prometheus) == #"""
            # HELP moviesd_calls_total Calls "ended"
            # TYPE moviesd_calls_total counter
            moviesd_calls_total{method="io.moviesd.Movies.Search",outcome="ok"} 3
            moviesd_calls_total{method="a\"b\\c\nd",outcome="x"} 1
            # HELP moviesd_connections Open\nnow
            # TYPE moviesd_connections gauge
            moviesd_connections 2
            # HELP moviesd_remote_state_info TMDB's state
            # TYPE moviesd_remote_state_info gauge
            moviesd_remote_state_info{remote_state="online"} 1
            # HELP moviesd_run_seconds Runs
            # TYPE moviesd_run_seconds summary
            moviesd_run_seconds_count 2
            moviesd_run_seconds_sum 1.5
            # HELP moviesd_wait_seconds Waits
            # TYPE moviesd_wait_seconds histogram
            moviesd_wait_seconds_bucket{method="m",le="0.5"} 1
            moviesd_wait_seconds_bucket{method="m",le="+Inf"} 2
            moviesd_wait_seconds_count{method="m"} 2
            moviesd_wait_seconds_sum{method="m"} 0.75

            """#)
    }

    @Test func openMetricsNamesCountersWithoutTotalAndEnds() {
        let text = MetricsExposition.text(Self.report, format: .openMetrics)
        #expect(text.hasPrefix("# TYPE moviesd_calls counter\n# HELP moviesd_calls Calls \\\"ended\\\"\nmoviesd_calls_total{"))
        #expect(text.contains("# TYPE moviesd_remote_state info\n# HELP moviesd_remote_state TMDB's state\nmoviesd_remote_state_info{remote_state=\"online\"} 1\n"))
        #expect(text.contains("# TYPE moviesd_wait_seconds histogram\n"))
        #expect(text.hasSuffix("moviesd_wait_seconds_sum{method=\"m\"} 0.75\n# EOF\n"))
    }

    @Test(arguments: [
        ("io.moviesd.calls_total", "moviesd_calls_total"), ("io.example.a.b", "example_a_b"), ("org.x.y-z", "org_x_y_z"),
    ])
    func namesMapByOneRule(name: String, exposed: String) {
        #expect(MetricsExposition.prometheusName(name) == exposed)
    }

    @Test func numbersAreWrittenAsBothFormatsReadThem() {
        #expect(MetricsExposition.number(.unsigned(18_446_744_073_709_551_615)) == "18446744073709551615")
        #expect(MetricsExposition.number(.double(3)) == "3")
        #expect(MetricsExposition.number(.double(0.000015)) == "1.5e-05")
        #expect(MetricsExposition.number(.double(.infinity)) == "+Inf")
    }
}
