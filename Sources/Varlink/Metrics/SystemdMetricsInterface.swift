/// systemd's `io.systemd.Metrics` interface (systemd 260 and later read it with `systemd-report`),
/// served beside a service's own on its socket: `List` streams every value of every family,
/// `Describe` every family; both require `more` and take no parameters, and a call that would
/// send nothing ends with `io.systemd.Metrics.NoSuchMetric`, as systemd's own implementation
/// (`metrics_method_list`, its "sentinel" error) does.
///
/// The interface definition follows systemd's (`src/shared/varlink-io.systemd.Metrics.c`), with
/// one difference of spelling: `List`'s `value`, which systemd ≥ 260 declares with its new `any`
/// type, is written `object` as systemd declared it before, a type every Varlink IDL parser knows
/// (systemd 257's `varlinkctl validate-idl`, the Python `varlink` module). The values are the same:
/// an integer, a number or a string.
public struct SystemdMetricsInterface: VarlinkInterfaceHandler {
    /// `io.systemd.Metrics`.
    public static let name = "io.systemd.Metrics"
    /// The error a call that would send no value ends with.
    public static let noSuchMetric = VarlinkError(name: "io.systemd.Metrics.NoSuchMetric")

    /// The interface definition, in systemd's layout (`sd_varlink_idl_format`).
    public static let description = """
        # Metrics: counters, gauges and strings a service reports about itself.
        interface io.systemd.Metrics

        # The kind of a metric family.
        type MetricFamilyType(
        \t# A number that only goes up.
        \tcounter,
        \t# A number that goes up and down.
        \tgauge,
        \t# A string.
        \tstring
        )

        # Every value of every metric family, one reply each.
        # [Requires 'more' flag]
        method List() -> (
        \t# The metric family's name, e.g. io.moviesd.calls_total.
        \tname: string,
        \t# The value: an integer, a number or a string, as the family's type says.
        \tvalue: object,
        \t# What the value is about when a family has one per object.
        \tobject: ?string,
        \t# The fields (labels) telling this value from the family's others; string values.
        \tfields: ?object
        )

        # Every metric family, one reply each.
        # [Requires 'more' flag]
        method Describe() -> (
        \t# The family's name.
        \tname: string,
        \t# What it counts.
        \tdescription: string,
        \t# Its type.
        \ttype: MetricFamilyType
        )

        # There is no value to report.
        error NoSuchMetric()

        """

    public var interfaceName: String { Self.name }
    public var interfaceDescription: String { Self.description }

    private let source: any MetricsSource

    /// Serves `source`'s families and values.
    public init(source: any MetricsSource) {
        self.source = source
    }

    public func declares(method name: String) -> Bool {
        name == "List" || name == "Describe"
    }

    public func handle(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        // systemd's methods take no parameters (sd_varlink_dispatch with no table refuses any).
        if let extra = call.parameterList.map(\.name).min() { throw .invalidParameter(extra) }
        guard call.more, !call.oneway else { throw .expectedMore }
        let replyParameters: [[String: JSONValue]]
        switch call.methodName {
        case "List":
            replyParameters = await source.collect().map(\.parameters)
        case "Describe":
            replyParameters = source.families.map { family in
                ["name": .string(family.name), "description": .string(family.description), "type": .string(family.kind.rawValue)]
            }
        default:
            throw .methodNotFound(call.method)
        }
        guard let last = replyParameters.last else { throw Self.noSuchMetric }
        for parameters in replyParameters.dropLast() { await replies.send(parameters) }
        return last
    }
}
