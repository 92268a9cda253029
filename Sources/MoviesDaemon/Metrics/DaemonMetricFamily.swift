import SystemSupport
import Varlink

/// One family of the daemon's metrics and how its values are read from a ``MetricsReading``:
/// the family and its values are declared together, in one table (``DaemonMetrics/table``), which
/// both `Describe` and `List` read, so no family is described that is never listed, or listed
/// without a description.
struct DaemonMetricFamily: Sendable {
    /// The family as `Describe` reports it.
    let family: MetricFamily
    /// Its values in a reading, in the order `List` sends them.
    let values: @Sendable (MetricsReading) -> [Metric]

    /// A family named `io.moviesd.<name>`.
    init(_ name: String, _ kind: MetricFamily.Kind, _ description: String, values: @escaping @Sendable (MetricsReading) -> [Metric]) {
        family = MetricFamily(DaemonMetrics.prefix + name, kind, description)
        self.values = values
    }

    /// A family with one value (always listed).
    static func single(
        _ name: String, _ kind: MetricFamily.Kind, _ description: String, value: @escaping @Sendable (MetricsReading) -> MetricValue?
    ) -> DaemonMetricFamily {
        DaemonMetricFamily(name, kind, description) { reading in
            value(reading).map { [Metric(DaemonMetrics.prefix + name, $0)] } ?? []
        }
    }

    /// A family with one value per set of fields: `values` gives each set's fields (name, value
    /// pairs) and its value.
    static func labelled(
        _ name: String, _ kind: MetricFamily.Kind, _ description: String,
        values: @escaping @Sendable (MetricsReading) -> [(fields: [(String, String)], value: MetricValue)]
    ) -> DaemonMetricFamily {
        DaemonMetricFamily(name, kind, description) { reading in
            values(reading).map { entry in
                Metric(DaemonMetrics.prefix + name, entry.value, fields: entry.fields.map { Metric.Field($0.0, $0.1) })
            }
        }
    }

    /// The three counter families of a histogram `name` (its unit in the name: `_seconds`), as
    /// Prometheus spells one and `io.systemd.Metrics`, which has no histogram type, can carry it:
    /// `name_bucket` with an `le` field per bucket (cumulative, `+Inf` last), `name_sum` and
    /// `name_count`. `values` gives each histogram's fields and the histogram; empty histograms
    /// send nothing.
    static func histogram(
        _ name: String, _ description: String,
        values: @escaping @Sendable (MetricsReading) -> [(fields: [(String, String)], histogram: LatencyHistogram)]
    ) -> [DaemonMetricFamily] {
        let bucket = DaemonMetricFamily(
            name + "_bucket", .counter, "\(description): durations up to `le` seconds (cumulative; the histogram's buckets)"
        ) { reading in
            values(reading).filter { !$0.histogram.isEmpty }.flatMap { entry in
                zip(LatencyHistogram.boundLabels, entry.histogram.cumulativeCounts).map { le, count in
                    Metric(DaemonMetrics.prefix + name + "_bucket", .unsigned(count), fields: (entry.fields + [("le", le)]).map { Metric.Field($0.0, $0.1) })
                }
            }
        }
        let sum = DaemonMetricFamily(name + "_sum", .counter, "\(description): the durations added up, in seconds (the histogram's sum)") { reading in
            values(reading).filter { !$0.histogram.isEmpty }.map { entry in
                Metric(DaemonMetrics.prefix + name + "_sum", .double(entry.histogram.sumSeconds), fields: entry.fields.map { Metric.Field($0.0, $0.1) })
            }
        }
        let count = DaemonMetricFamily(name + "_count", .counter, "\(description): how many (the histogram's count)") { reading in
            values(reading).filter { !$0.histogram.isEmpty }.map { entry in
                Metric(DaemonMetrics.prefix + name + "_count", .unsigned(entry.histogram.count), fields: entry.fields.map { Metric.Field($0.0, $0.1) })
            }
        }
        return [bucket, count, sum]
    }
}
