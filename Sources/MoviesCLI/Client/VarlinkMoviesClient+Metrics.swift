import Varlink

extension VarlinkMoviesClient {
    /// Calls `io.systemd.Metrics.Describe` and then `List` (both with `more`, as the interface
    /// requires) and collects their replies.
    public func metrics() throws(ClientError) -> MetricsReport {
        var report = MetricsReport()
        try streamMetrics("Describe") { parameters in
            report.describeReplies.append(parameters)
            if let family = MetricsReport.family(from: parameters) { report.families.append(family) }
        }
        try streamMetrics("List") { parameters in
            report.listReplies.append(parameters)
            if let metric = MetricsReport.metric(from: parameters) { report.metrics.append(metric) }
        }
        return report
    }

    /// Calls `io.systemd.Metrics.<method>` with `more` and hands each reply's parameters to
    /// `onReply`; an error reply is thrown (`NoSuchMetric` is an empty answer, not an error).
    private func streamMetrics(_ method: String, onReply: (JSONValue) -> Void) throws(ClientError) {
        let client = try connect()
        var failure: ClientError?
        do {
            try client.call("\(SystemdMetricsInterface.name).\(method)", parameters: [:], more: true) { reply in
                guard failure == nil else { return }
                if let name = reply.error {
                    guard name != SystemdMetricsInterface.noSuchMetric.name else { return }
                    failure = name == "org.varlink.service.InterfaceNotFound" || name == "org.varlink.service.MethodNotFound"
                        ? .other("moviesd at \(socketPath) reports no metrics (io.systemd.Metrics): it is older than this movies; upgrade it")
                        : .other("moviesd answered \(method) of its metrics with the error \(name)")
                    return
                }
                onReply(reply.parameters)
            }
        } catch let error as ClientError {
            failure = failure ?? error
        } catch {
            failure = failure ?? .daemonUnreachable(socketPath: socketPath, reason: "connection lost: \(error)")
        }
        if let failure { throw failure }
    }
}
