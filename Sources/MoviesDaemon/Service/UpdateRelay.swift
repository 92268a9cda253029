import MoviesDomain
import SystemSupport
import Varlink

/// Turns a cached-then-remote task's updates into Varlink replies: the one place where a call
/// runs concurrently with its own work (the answer deadline races the network).
///
/// The call's cached value, when its plan answers with it, went out before the task ran (from
/// memory on the event loop, or from the task's own lookup); what the task emits is TMDB's answer
/// (or the local index's). With `more`, every update but the last goes out as it comes and the
/// last becomes the final reply. Without `more`, the caller gets one reply: the last update.
/// When the plan falls back to the cache (`fallback`), TMDB missing the answer deadline or
/// failing ends the call with the cached value and `remoteError` saying why (the fetch goes on in
/// the background and still updates the cache); otherwise a failure is the call's error.
struct UpdateRelay: Sendable {
    /// How long a call waits for the network before answering from the cache.
    let answerDeadlineSeconds: Int
    /// The shared clock of the deadlines (one ticker instead of a timer per call).
    let deadlines = DeadlineTimer.shared

    /// Runs `task` for `call` and relays what it emits; `encode` builds a reply's parameters from
    /// an update, `fallback` the final reply from the cached value with a reason.
    func relay<Value: Sendable>(
        _ task: @escaping @Sendable (@escaping EmitFetched<Value>) async throws -> Void,
        call: VarlinkCall,
        replies: VarlinkReplyWriter,
        parameter: String,
        fallback: (@Sendable (String) -> [String: JSONValue])? = nil,
        encode: @escaping @Sendable (Fetched<Value>) -> [String: JSONValue]
    ) async throws(VarlinkError) -> [String: JSONValue] {
        let (events, sink) = AsyncStream<RelayEvent<Value>>.makeStream()
        // The task is not cancelled when the call answers early: the fetch goes on and stores
        // what TMDB sends. It is cancelled with the call.
        let consumer = Task {
            do {
                try await task { update in sink.yield(.update(update)) }
                sink.yield(.finished)
            } catch {
                sink.yield(.failed(error))
            }
            sink.finish()
        }
        // Without a cached value to answer with, the call waits for the task (bounded by the
        // request's own deadline and the call's).
        let cancelDeadline = fallback == nil ? {} : armDeadline { sink.yield(.deadlinePassed) }
        defer { cancelDeadline() }

        let streams = call.more
        let outcome: RelayOutcome<Value> = await withTaskCancellationHandler {
            await relayUpdates(events, replies: streams ? replies : nil, fallback: fallback, encode: encode)
        } onCancel: {
            consumer.cancel()
        }
        switch outcome {
        case .answer(let update): return encode(update)
        case .parameters(let parameters): return parameters
        case .failure(let error): throw VarlinkError.from(error, parameter: parameter)
        }
    }

    /// Calls `fire` once the answer deadline passes; returns the function that disarms it.
    private func armDeadline(_ fire: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let deadline = answerDeadlineSeconds
        if deadline > 0 {
            let id = deadlines.schedule(after: .seconds(deadline), fire)
            return { [deadlines] in deadlines.cancel(id) }
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(deadline))
            if !Task.isCancelled { fire() }
        }
        return { timer.cancel() }
    }

    /// Relays `events`: with `replies` (a `more` call), every update but the last as it comes;
    /// the last is the final answer. A failure or the deadline before any update answers with
    /// `fallback` when there is one.
    private func relayUpdates<Value: Sendable>(
        _ events: AsyncStream<RelayEvent<Value>>,
        replies: VarlinkReplyWriter?,
        fallback: ((String) -> [String: JSONValue])?,
        encode: (Fetched<Value>) -> [String: JSONValue]
    ) async -> RelayOutcome<Value> {
        var latest: Fetched<Value>?
        for await event in events {
            switch event {
            case .update(let update):
                if let replies, let held = latest { await replies.send(encode(held)) }
                latest = update
            case .finished:
                return latest.map { .answer($0) } ?? .failure(MoviesError.notCached("no answer was produced"))
            case .failed(let error):
                if let latest, !UpdateRelay.isCancellation(error) {
                    var answered = latest
                    answered.freshness.remoteError = answered.freshness.remoteError ?? UpdateRelay.describe(error)
                    return .answer(answered)
                }
                if let fallback, !UpdateRelay.isCancellation(error) { return .parameters(fallback(UpdateRelay.describe(error))) }
                return .failure(error)
            case .deadlinePassed:
                if latest == nil, let fallback { return .parameters(fallback(UpdateRelay.lateReason(deadline: answerDeadlineSeconds))) }
            }
        }
        return .failure(CancellationError())
    }

    private static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        return (error as? MoviesError)?.code == .cancelled
    }

    /// The longest answer deadline used (a year): longer configured ones behave the same, and
    /// sleeping for an `AnswerDeadlineSec=` near `Int.max` would trap in `Task.sleep`.
    static let longestDeadlineSeconds = 365 * 86_400

    /// Creates a relay answering calls without `more` within `answerDeadlineSeconds`
    /// (clamped to `0...longestDeadlineSeconds`).
    init(answerDeadlineSeconds: Int) {
        self.answerDeadlineSeconds = min(max(0, answerDeadlineSeconds), UpdateRelay.longestDeadlineSeconds)
    }

    /// Why a call was answered from the cache: TMDB missed the answer deadline.
    static func lateReason(deadline: Int) -> String {
        "TMDB did not answer within \(deadline) s; answered from the cache"
    }

    /// One sentence for `remoteError`.
    static func describe(_ error: any Error) -> String {
        if let error = error as? MoviesError { return error.message }
        return "the remote request failed"
    }
}

private enum RelayEvent<Value: Sendable>: Sendable {
    case update(Fetched<Value>)
    case finished
    case failed(any Error)
    case deadlinePassed
}

private enum RelayOutcome<Value: Sendable>: Sendable {
    case answer(Fetched<Value>)
    /// The cached page already sent, as the final reply (TMDB failed or was late).
    case parameters([String: JSONValue])
    case failure(any Error)
}
