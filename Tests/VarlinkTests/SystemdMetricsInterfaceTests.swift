import Foundation
import Testing
@testable import Varlink

/// `io.systemd.Metrics` as systemd defines it: `List` and `Describe` stream with `more`, take no
/// parameters, and end with `NoSuchMetric` when there is nothing to send.
@Suite struct SystemdMetricsInterfaceTests {
    struct FixedSource: MetricsSource {
        var families: [MetricFamily]
        var metrics: [Metric]
        func collect() async -> [Metric] { metrics }
    }

    static let source = FixedSource(
        families: [
            MetricFamily("io.example.requests_total", .counter, "Requests"),
            MetricFamily("io.example.state", .string, "State"),
        ],
        metrics: [
            Metric("io.example.requests_total", .unsigned(3), fields: [Metric.Field("kind", "a")]),
            Metric("io.example.requests_total", .unsigned(4), fields: [Metric.Field("kind", "b")]),
            Metric("io.example.state", .string("online")),
        ])

    private func start(_ source: FixedSource = Self.source) throws -> (TestServer, RawConnection) {
        let server = try TestServer.start(extraHandlers: [SystemdMetricsInterface(source: source)])
        return (server, try RawConnection(path: server.path))
    }

    @Test func listStreamsEveryValueWithContinuesOnAllButTheLast() async throws {
        let (server, client) = try start()
        try client.call("io.systemd.Metrics.List", more: true)
        var replies: [JSONValue] = []
        for _ in 0..<3 { replies.append(try await client.readMessage()) }
        #expect(replies.map { $0["continues"] } == [.bool(true), .bool(true), nil])
        #expect(replies[0]["parameters"] == .object(["name": .string("io.example.requests_total"), "value": .int(3), "fields": .object(["kind": .string("a")])]))
        #expect(replies[1]["parameters"]?["value"] == .int(4))
        // A value without fields carries none (systemd omits the member), nor an object.
        #expect(replies[2]["parameters"] == .object(["name": .string("io.example.state"), "value": .string("online")]))
        await server.stop()
    }

    @Test func describeStreamsEveryFamilyWithItsType() async throws {
        let (server, client) = try start()
        try client.call("io.systemd.Metrics.Describe", more: true)
        let first = try await client.readMessage()
        let last = try await client.readMessage()
        #expect(first == .object(["continues": .bool(true), "parameters": .object([
            "name": .string("io.example.requests_total"), "description": .string("Requests"), "type": .string("counter"),
        ])]))
        #expect(last["continues"] == nil)
        #expect(last["parameters"]?["type"] == .string("string"))
        await server.stop()
    }

    @Test(arguments: ["List", "Describe"])
    func aCallWithoutMoreGetsExpectedMore(method: String) async throws {
        let (server, client) = try start()
        try client.call("io.systemd.Metrics.\(method)")
        #expect(try await client.readMessage()["error"] == .string("org.varlink.service.ExpectedMore"))
        await server.stop()
    }

    @Test func aParameterIsRefusedAsSystemdRefusesIt() async throws {
        let (server, client) = try start()
        try client.call("io.systemd.Metrics.List", ["name": .string("io.example.state")], more: true)
        let reply = try await client.readMessage()
        #expect(reply["error"] == .string("org.varlink.service.InvalidParameter"))
        #expect(reply["parameters"]?["parameter"] == .string("name"))
        await server.stop()
    }

    @Test func nothingToSendEndsWithNoSuchMetric() async throws {
        let (server, client) = try start(FixedSource(families: [], metrics: []))
        try client.call("io.systemd.Metrics.List", more: true)
        #expect(try await client.readMessage()["error"] == .string("io.systemd.Metrics.NoSuchMetric"))
        try client.call("io.systemd.Metrics.Describe", more: true)
        #expect(try await client.readMessage()["error"] == .string("io.systemd.Metrics.NoSuchMetric"))
        await server.stop()
    }

    @Test func theServerServesTheInterfaceDescriptionAndItDeclaresBothMethods() async throws {
        let (server, client) = try start()
        try client.call("org.varlink.service.GetInterfaceDescription", ["interface": .string("io.systemd.Metrics")])
        #expect(try await client.readMessage()["parameters"]?["description"] == .string(SystemdMetricsInterface.description))
        try client.call("io.systemd.Metrics.Nope", more: true)
        #expect(try await client.readMessage()["error"] == .string("org.varlink.service.MethodNotFound"))
        let parsed = InterfaceDescription(text: SystemdMetricsInterface.description)
        #expect(parsed.methodNames == ["List", "Describe"])
        #expect(parsed.methods["List"]?.parameters.isEmpty == true)
        // systemd's layout: tab indentation, the more flag as a comment before each method.
        #expect(SystemdMetricsInterface.description.contains("# [Requires 'more' flag]\nmethod List() -> (\n\t"))
        #expect(SystemdMetricsInterface.description.contains("error NoSuchMetric()"))
        await server.stop()
    }

    /// `systemd-report` takes a family only when its name is an interface name under the socket's
    /// name, a dot and a Varlink field name.
    @Test(arguments: [
        ("io.example.requests_total", true), ("io.example.Requests", true), ("io.example", false), ("io.examples.x", false),
        ("io.example._x", false), ("io.example.x_", false), ("io.example.a__b", false), ("io.example.1x", false), ("io.example.a-b", false),
    ])
    func familyNamesAreThoseSystemdReportTakes(name: String, valid: Bool) {
        #expect(MetricFamily.isValidName(name, under: "io.example") == valid)
    }
}
