import FoundationEssentials
import MoviesData
import MoviesDomain
import MoviesWire
import Varlink

/// Replies made from the storage's memory (`ResponseMemory`): a cached entry's stored reply bytes
/// and its age spliced into the reply's shape, without a task, a storage read, or decoding or
/// encoding the value, so that the server's event loop may answer with it. The stored bytes are
/// not copied: the reply shares them with the memory (`VarlinkPreparedReply`'s pieces).
///
/// It holds no answers of its own: the memory is the storage's, kept current by every write.
final class MemoryAnswers: Sendable {
    private let remembered: @Sendable (String) -> ResponseMemory.Remembered?
    private let now: @Sendable () -> Date

    /// Creates answers from `remembered` (the storage's `remembered(forKey:)`).
    init(remembered: @escaping @Sendable (String) -> ResponseMemory.Remembered?, now: @escaping @Sendable () -> Date) {
        self.remembered = remembered
        self.now = now
    }

    /// The stage of a `Search` or `Movie` call on the event loop: looks its entry up in memory
    /// (`key`; `maxStaleSeconds`: the configured bound, `override` the call's), makes the call's
    /// plan and answers its immediate part: the final reply, or the first of a `more` call's
    /// (`continues`). `member` names the value in the reply (`page`, `movie`). What it read and
    /// planned goes on to the call's task (``VarlinkCall/carried``) unless the reply is final.
    func answerAtOnce<Parameters: Sendable>(
        _ call: VarlinkCall, parameters: Parameters, key: String, member: String, policy: FetchPolicy,
        maxStaleSeconds: Int, override: Int?
    ) -> VarlinkPreparedReply? {
        var planned = PlannedCall(parameters: parameters)
        guard let lookup = remembered(key)?.lookup(maxStaleSeconds: maxStaleSeconds) else {
            call.carried.set(planned)
            return nil
        }
        let date = now()
        let plan = FetchPlan.make(policy: policy, streams: call.more && !call.oneway, entry: lookup.entry(at: date, maxStaleSeconds: override))
        (planned.lookup, planned.plan) = (lookup, plan)
        guard let immediate = plan.immediate, let answer = lookup.answer else {
            call.carried.set(planned)
            return nil
        }
        let continues = immediate == .first
        if continues { call.carried.set(planned) }
        // The reply's two members written as they are, in name order (`freshness` sorts first):
        // the freshness straight into the message, the stored reply shared.
        let freshness = answer.freshness(at: date)
        if member > "freshness", Self.writesDirectly(freshness) {
            return VarlinkPreparedReply(continues: continues, writingMembers: { text in
                text.append(contentsOf: #""freshness":"#.utf8)
                Self.appendFreshness(freshness, to: &text)
            }, thenMember: member, json: answer.json)
        }
        return VarlinkPreparedReply(parameters: Self.parameters(member, answer, at: date), continues: continues)
    }

    /// The reply parameters of answering `answer` from the cache now, with `remoteError` when TMDB
    /// could not answer.
    func parameters(_ member: String, _ answer: CachedAnswer, remoteError: String? = nil) -> [String: JSONValue] {
        Self.parameters(member, answer, at: now(), remoteError: remoteError)
    }

    /// The reply parameters of an update: its stored reply bytes when it has them, else `value`
    /// encoded.
    static func parameters<Value: Encodable>(_ member: String, _ update: Fetched<Value>) -> [String: JSONValue] {
        let freshness = (try? WireCoding.encode(update.freshness)) ?? .null
        if let encoded = update.encoded { return [member: .raw(encoded), "freshness": freshness] }
        return [member: (try? WireCoding.encode(update.value)) ?? .null, "freshness": freshness]
    }

    private static func parameters(_ member: String, _ answer: CachedAnswer, at date: Date, remoteError: String? = nil) -> [String: JSONValue] {
        var freshness = answer.freshness(at: date)
        freshness.remoteError = remoteError
        if remoteError == nil, let written = freshnessBytes(freshness) {
            return [member: .raw(answer.json), "freshness": .raw(written)]
        }
        return [member: .raw(answer.json), "freshness": (try? WireCoding.encode(freshness)) ?? .null]
    }

    /// A cached answer's freshness as `WireCoding` writes it (sorted keys, RFC 3339 date, absent
    /// optionals omitted), written directly: no encoder per reply. `nil` when it has optional
    /// fields set or a date `WireDate` does not cover (then it is encoded).
    static func freshnessBytes(_ freshness: Freshness) -> [UInt8]? {
        guard writesDirectly(freshness) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96)
        appendFreshness(freshness, to: &bytes)
        return bytes
    }

    /// Whether `appendFreshness(_:to:)` writes `freshness` as `WireCoding` would.
    private static func writesDirectly(_ freshness: Freshness) -> Bool {
        freshness.remoteError == nil && freshness.stored == nil && freshness.storageFault == nil && WireDate.covers(freshness.fetchedAt)
    }

    /// Appends `freshness` (one `writesDirectly(_:)` accepts) as `WireCoding` writes it.
    private static func appendFreshness(_ freshness: Freshness, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"ageSeconds":"#.utf8)
        bytes.append(contentsOf: String(freshness.ageSeconds).utf8)
        bytes.append(contentsOf: #","fetchedAt":""#.utf8)
        _ = WireDate.append(freshness.fetchedAt, to: &bytes)
        bytes.append(contentsOf: #"","origin":""#.utf8)
        bytes.append(contentsOf: freshness.origin.rawValue.utf8)
        bytes.append(contentsOf: #"","stale":"#.utf8)
        bytes.append(contentsOf: (freshness.stale ? "true" : "false").utf8)
        bytes.append(UInt8(ascii: "}"))
    }
}
