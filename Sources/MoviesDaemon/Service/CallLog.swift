import FoundationEssentials
import MoviesData
import Varlink

/// The `--log-level debug` line written for every call: method, key (its parameters), where the
/// answer came from, milliseconds. Calls carry no credential (the token lives only in the daemon),
/// and the logger redacts it besides. Middleware of the router (added only when debug is on),
/// around answers from memory too.
struct CallLog: VarlinkEventLoopMiddleware {
    let events: any EventLog

    func handle(
        _ call: VarlinkCall, route: VarlinkRoute, replies: VarlinkReplyWriter, next: VarlinkResponder
    ) async throws(VarlinkError) -> [String: JSONValue] {
        let started = ContinuousClock.now
        do {
            let reply = try await next(call, replies)
            record(call, outcome: Self.outcome(of: reply), since: started)
            return reply
        } catch {
            record(call, outcome: "error \(error.name)", since: started)
            throw error
        }
    }

    /// The same line for an answer from memory (`origin=cache (memory)`); nothing when the call
    /// goes on to its task (which writes its own line).
    func answerAtOnce(_ call: VarlinkCall, route: VarlinkRoute, next: (VarlinkCall) -> VarlinkPreparedReply?) -> VarlinkPreparedReply? {
        let started = ContinuousClock.now
        guard let reply = next(call) else { return nil }
        record(call, outcome: "origin=cache (memory)", since: started)
        return reply
    }

    /// Whether a line is written at all (checked before timing a call).
    var isEnabled: Bool { events.isEnabled(.debug) }

    /// Records one finished call.
    func record(_ call: VarlinkCall, outcome: String, since started: ContinuousClock.Instant) {
        let elapsed = started.duration(to: .now).components
        let ms = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
        let more = call.more ? " more" : ""
        events.record(DataEvent(
            .debug, "call",
            "call \(call.methodName)\(more) key=\(Self.key(call.parameters)) -> \(outcome) in \(Self.milliseconds(ms)) ms"))
    }

    /// `origin=<origin>` of a reply that carries `freshness`, else `ok`.
    static func outcome(of reply: [String: JSONValue]) -> String {
        guard let freshness = reply["freshness"] else { return "ok" }
        switch freshness {
        case .object(let members):
            return members["origin"]?.stringValue.map { "origin=\($0)" } ?? "ok"
        case .raw(let bytes):
            let text = String(decoding: bytes, as: UTF8.self)
            guard let range = text.range(of: #""origin":""#) else { return "ok" }
            return "origin=" + text[range.upperBound...].prefix { $0 != "\"" }
        default:
            return "ok"
        }
    }

    /// The call's parameters as `name=value` pairs in name order, at most 200 characters.
    static func key(_ parameters: [String: JSONValue]) -> String {
        guard !parameters.isEmpty else { return "-" }
        let text = parameters.keys.sorted().map { name in
            "\(name)=\(String(decoding: (parameters[name] ?? .null).serialized(), as: UTF8.self))"
        }.joined(separator: ",")
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    private static func milliseconds(_ ms: Double) -> String {
        ms >= 10 ? String(Int(ms.rounded())) : String(Double(Int(ms * 10)) / 10)
    }
}
