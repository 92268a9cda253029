import FoundationEssentials
import MoviesDomain
import MoviesWire
import Synchronization
import Varlink

/// The daemon's one in-memory cache of answers, at the edge: cached pages in the interface's shape
/// (`CachedAnswer`), keyed by cache key, within a byte budget.
///
/// An answer is trusted only while the cache's change counter is where it was before the answer was
/// read from storage (GRDB's way: the store knows when it changed), so it is always exactly what a
/// read would give. A hit is a dictionary lookup and a splice of stored bytes: no storage read, no
/// decoding, no encoding of the page, so it may run on the server's event loop thread.
final class HotAnswers: Sendable {
    /// Where the counter and the LRU bookkeeping come from: the cache's storage adapter.
    struct Source: Sendable {
        /// The cache's change counter, read from memory.
        var changeCount: @Sendable () -> UInt64
        /// Notes that the entry under a key was answered from memory (for LRU eviction); never waits.
        var recordAccess: @Sendable (String) -> Void
    }

    private struct Entry {
        var answer: CachedAnswer
        var changeCount: UInt64
        /// The answer's freshness at age 0 without its leading `{"ageSeconds":0`: a reply splices
        /// the current age in front (`WireCoding` sorts keys, so `ageSeconds` comes first).
        var freshnessTail: [UInt8]?
        /// The last final reply made from it, and the age (whole seconds) it says: answering again
        /// within the same second sends these bytes as they are. Kept by a few entries only (the
        /// hot ones, `preparedCapacity`), so that a wide working set does not hold every page twice.
        var prepared: (ageSeconds: Int, reply: VarlinkPreparedReply)?
        /// The same for the first of a `more` call's replies (`continues`).
        var preparedFirst: (ageSeconds: Int, reply: VarlinkPreparedReply)?
        /// When the last access was passed on for LRU eviction (Unix seconds): at most once a second.
        var accessPassedOnAt = -Double.infinity
        var bytes: Int { answer.json.count + (freshnessTail?.count ?? 0) + 256 }
    }

    private struct State {
        var entries: [HotAnswerKey: Entry] = [:]
        var bytes = 0
        /// The keys whose entries keep a prepared reply, oldest first.
        var preparedKeys: [HotAnswerKey] = []
    }

    /// How many keys keep their last prepared reply.
    static let preparedCapacity = 64

    private let state = Mutex(State())
    private let source: Source
    private let byteBudget: Int
    private let now: @Sendable () -> Date

    /// Creates an empty cache holding at most `byteBudget` bytes of answers (0: none).
    init(byteBudget: Int, source: Source, now: @escaping @Sendable () -> Date) {
        self.byteBudget = max(0, byteBudget)
        self.source = source
        self.now = now
    }

    /// The counter to pass to `remember` for an answer about to be read from storage.
    var changeCount: UInt64 { source.changeCount() }

    /// The answer remembered under `key`, if nothing was written to the cache since it was read.
    func answer(forKey key: String) -> CachedAnswer? {
        current(HotAnswerKey(key), at: now())
    }

    /// The reply to answering `key` from memory at `date` (final, or with `continues`), with the
    /// answer it was made from, when that answer is current; `nil` otherwise. Never encodes the
    /// page: a reply is the stored bytes and the age spliced together, made at most once a second.
    func reply(forKey text: String, at date: Date, continues: Bool) -> (reply: VarlinkPreparedReply, answer: CachedAnswer)? {
        let key = HotAnswerKey(text)
        let changeCount = source.changeCount()
        let seconds = date.timeIntervalSince1970
        // A prepared reply of the right age is answered within the lock, without copying the entry.
        enum Found { case prepared(VarlinkPreparedReply, CachedAnswer), toMake(CachedAnswer, freshnessTail: [UInt8]?) }
        guard let (found, passOn) = state.withLock({ state -> (Found, Bool)? in
            guard let index = state.entries.index(forKey: key), state.entries.values[index].changeCount == changeCount else { return nil }
            let passOn = !(seconds - state.entries.values[index].accessPassedOnAt < 1)
            if passOn { state.entries.values[index].accessPassedOnAt = seconds }
            let answer = state.entries.values[index].answer
            if !answer.isStale(at: date),
               let prepared = continues ? state.entries.values[index].preparedFirst : state.entries.values[index].prepared,
               prepared.ageSeconds == answer.ageSeconds(at: date) {
                return (.prepared(prepared.reply, answer), passOn)
            }
            return (.toMake(answer, freshnessTail: state.entries.values[index].freshnessTail), passOn)
        }) else { return nil }
        if passOn { source.recordAccess(key.key) }
        guard case .toMake(let answer, let freshnessTail) = found else {
            guard case .prepared(let reply, let answer) = found else { return nil }
            return (reply, answer)
        }
        let reply = VarlinkPreparedReply(parameters: Self.parameters(answer, freshnessTail: freshnessTail, at: date), continues: continues)
        guard !answer.isStale(at: date) else { return (reply, answer) }
        let age = answer.ageSeconds(at: date)
        // Kept only while the entry is the one it was made from (same count: same answer).
        state.withLock { state in
            guard let index = state.entries.index(forKey: key), state.entries.values[index].changeCount == changeCount else { return }
            if state.entries.values[index].prepared == nil, state.entries.values[index].preparedFirst == nil,
               !state.preparedKeys.contains(key) {
                state.preparedKeys.append(key)
                if state.preparedKeys.count > Self.preparedCapacity {
                    let victim = state.preparedKeys.removeFirst()
                    state.entries[victim]?.prepared = nil
                    state.entries[victim]?.preparedFirst = nil
                }
            }
            if continues {
                state.entries.values[index].preparedFirst = (age, reply)
            } else {
                state.entries.values[index].prepared = (age, reply)
            }
        }
        return (reply, answer)
    }

    /// The answer under `key` when nothing was written since it was read; the access counts for
    /// LRU eviction.
    private func current(_ key: HotAnswerKey, at date: Date) -> CachedAnswer? {
        let changeCount = source.changeCount()
        let seconds = date.timeIntervalSince1970
        guard let (answer, passOn) = state.withLock({ state -> (CachedAnswer, Bool)? in
            guard let index = state.entries.index(forKey: key), state.entries.values[index].changeCount == changeCount else { return nil }
            let passOn = !(seconds - state.entries.values[index].accessPassedOnAt < 1)
            if passOn { state.entries.values[index].accessPassedOnAt = seconds }
            return (state.entries.values[index].answer, passOn)
        }) else { return nil }
        if passOn { source.recordAccess(key.key) }
        return answer
    }

    /// Remembers `answer` for `key`, read from storage after the counter read `changeCount`.
    /// A hot key's replies (those it kept prepared) are made again here, off the event loop, so
    /// that its next answer from memory is still a lookup: after a write, not rebuilt on the loop.
    func remember(_ answer: CachedAnswer, forKey text: String, readAt changeCount: UInt64) {
        let key = HotAnswerKey(text)
        var entry = Entry(answer: answer, changeCount: changeCount, freshnessTail: Self.freshnessTail(of: answer))
        guard entry.bytes <= byteBudget else { return }
        let (hadFinal, hadFirst) = state.withLock { state in
            (state.entries[key]?.prepared != nil, state.entries[key]?.preparedFirst != nil)
        }
        let date = now()
        if hadFinal || hadFirst, !answer.isStale(at: date) {
            let age = answer.ageSeconds(at: date)
            let parameters = Self.parameters(answer, freshnessTail: entry.freshnessTail, at: date)
            if hadFinal { entry.prepared = (age, VarlinkPreparedReply(parameters: parameters, continues: false)) }
            if hadFirst { entry.preparedFirst = (age, VarlinkPreparedReply(parameters: parameters, continues: true)) }
        }
        state.withLock { state in
            // Still one of the few keys allowed prepared replies? (Another may have taken its place.)
            if entry.prepared != nil || entry.preparedFirst != nil, !state.preparedKeys.contains(key) {
                entry.prepared = nil
                entry.preparedFirst = nil
            }
            if let replaced = state.entries.updateValue(entry, forKey: key) { state.bytes -= replaced.bytes }
            state.bytes += entry.bytes
            while state.bytes > byteBudget, let victim = state.entries.keys.first(where: { $0 != key }) {
                state.bytes -= state.entries.removeValue(forKey: victim)?.bytes ?? 0
            }
        }
    }

    /// The reply parameters of answering `answer` from the cache now.
    func parameters(_ answer: CachedAnswer) -> [String: JSONValue] {
        Self.parameters(answer, freshnessTail: Self.freshnessTail(of: answer), at: now())
    }

    /// The reply parameters of answering `answer` from the cache now because TMDB could not:
    /// `remoteError` says why.
    func parameters(_ answer: CachedAnswer, remoteError: String) -> [String: JSONValue] {
        var freshness = answer.freshness(at: now())
        freshness.remoteError = remoteError
        return ["page": .raw(answer.json), "freshness": (try? WireCoding.encode(freshness)) ?? .null]
    }

    /// How many answers and bytes are held.
    var usage: (answers: Int, bytes: Int) {
        state.withLock { ($0.entries.count, $0.bytes) }
    }

    /// How many keys keep a prepared reply (at most `preparedCapacity`).
    var preparedCount: Int {
        state.withLock { state in state.entries.values.count { $0.prepared != nil || $0.preparedFirst != nil } }
    }

    private static let agePrefix = Array(#"{"ageSeconds":"#.utf8)

    private static func parameters(_ answer: CachedAnswer, freshnessTail: [UInt8]?, at date: Date) -> [String: JSONValue] {
        guard let freshnessTail, !answer.isStale(at: date) else {
            return ["page": .raw(answer.json), "freshness": (try? WireCoding.encode(answer.freshness(at: date))) ?? .null]
        }
        var freshness = agePrefix
        freshness.reserveCapacity(agePrefix.count + 20 + freshnessTail.count)
        freshness.append(contentsOf: String(answer.ageSeconds(at: date)).utf8)
        freshness.append(contentsOf: freshnessTail)
        return ["page": .raw(answer.json), "freshness": .raw(freshness)]
    }

    /// The fresh answer's freshness at age 0, as `WireCoding` writes it (sorted keys, RFC 3339
    /// date), after `{"ageSeconds":0`; `nil` for a date `WireDate` does not cover (then every
    /// reply encodes its freshness with `JSONEncoder`). Written with the interface's own JSON
    /// writer: remembering an answer must not cost a `JSONEncoder`.
    private static func freshnessTail(of answer: CachedAnswer) -> [UInt8]? {
        var date: [UInt8] = []
        guard WireDate.append(answer.fetchedAt, to: &date) else { return nil }
        let fresh = JSONValue.object([
            "ageSeconds": .int(0), "fetchedAt": .string(String(decoding: date, as: UTF8.self)),
            "origin": .string(Freshness.Origin.cache.rawValue), "stale": .bool(false),
        ]).serialized()
        guard fresh.starts(with: agePrefix + [UInt8(ascii: "0")]) else { return nil }
        return Array(fresh.dropFirst(agePrefix.count + 1))
    }
}
