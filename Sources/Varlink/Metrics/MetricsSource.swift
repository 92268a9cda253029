/// What an `io.systemd.Metrics` interface reports: its families, and their values now.
public protocol MetricsSource: Sendable {
    /// Every family, in name order (`Describe` lists them so).
    var families: [MetricFamily] { get }
    /// Every value of every family now, in family order (`List` sends them so). A family with no
    /// value now (a histogram nothing was recorded in) sends none.
    func collect() async -> [Metric]
}
