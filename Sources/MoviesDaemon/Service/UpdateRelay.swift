import MoviesDomain
import SystemSupport
import Varlink

/// Turns a cached-then-remote task's updates into Varlink replies: the one place where a call
/// runs concurrently with its own work (the answer deadline races the network).
///
/// With `more`, a cached update that the policy promises to follow with fresh data is sent at once
/// (or was sent before the task ran, and `fallback` makes the final reply of it if TMDB fails)
/// (`continues: true`); every other update is held until the next one arrives or the stream ends, so
/// the last update becomes the final reply. If the network has not answered within the answer
/// deadline after the cached update, the call ends with the cached page and `remoteError` (the
/// fetch goes on in the background and still updates the cache); a remote failure after cached
/// data ends it the same way, with the failure as `remoteError`.
///
/// Without `more`, the caller gets one reply: the fresh answer if it arrives within the answer
/// deadline; otherwise the cached answer with `remoteError` saying why; nothing cached → the error.
struct UpdateRelay: Sendable {
    /// How long a call waits for the network before answering from the cache.
    let answerDeadlineSeconds: Int
    /// The shared clock of the deadlines (one ticker instead of a timer per call).
    let deadlines = DeadlineTimer.shared

    /// Runs `task` for `call` and relays what it emits; `encode` builds a reply's parameters from
    /// an update.
    func relay<Value: Sendable>(
        _ task: @escaping @Sendable (@escaping EmitFetched<Value>) async throws -> Void,
        call: VarlinkCall,
        replies: VarlinkReplyWriter,
        policy: FetchPolicy,
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
        let cancelDeadline = armDeadline { sink.yield(.deadlinePassed) }
        defer { cancelDeadline() }

        let streams = call.more
        let outcome: RelayOutcome<Value> = await withTaskCancellationHandler {
            streams
                ? await streamReplies(events, replies: replies, policy: policy, fallback: fallback, encode: encode)
                : await bestAnswer(events, policy: policy)
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

    private func streamReplies<Value: Sendable>(
        _ events: AsyncStream<RelayEvent<Value>>,
        replies: VarlinkReplyWriter,
        policy: FetchPolicy,
        fallback: ((String) -> [String: JSONValue])?,
        encode: (Fetched<Value>) -> [String: JSONValue]
    ) async -> RelayOutcome<Value> {
        var pending: Fetched<Value>?
        var lastSent: Fetched<Value>?
        var deadlinePassed = false
        let deadline = answerDeadlineSeconds
        for await event in events {
            switch event {
            case .update(let update):
                if let held = pending {
                    await replies.send(encode(held))
                    lastSent = held
                    pending = nil
                }
                if UpdateRelay.freshDataFollows(update, policy: policy) {
                    if deadlinePassed { return .answer(UpdateRelay.late(update, deadline: deadline)) }
                    await replies.send(encode(update))
                    lastSent = update
                } else {
                    pending = update
                }
            case .finished:
                if let final = pending ?? lastSent { return .answer(final) }
                return .failure(MoviesError.notCached("no answer was produced"))
            case .failed(let error):
                if let held = pending {
                    await replies.send(encode(held))
                    lastSent = held
                    pending = nil
                }
                // The cached page was sent and TMDB failed: end with it, saying why.
                if var cached = lastSent, UpdateRelay.freshDataFollows(cached, policy: policy), !UpdateRelay.isCancellation(error) {
                    cached.freshness.remoteError = UpdateRelay.describe(error)
                    return .answer(cached)
                }
                if lastSent == nil, let fallback, !UpdateRelay.isCancellation(error) {
                    return .parameters(fallback(UpdateRelay.describe(error)))
                }
                return .failure(error)
            case .deadlinePassed:
                deadlinePassed = true
                if pending == nil, let cached = lastSent, UpdateRelay.freshDataFollows(cached, policy: policy) {
                    return .answer(UpdateRelay.late(cached, deadline: deadline))
                }
                if pending == nil, lastSent == nil, let fallback {
                    return .parameters(fallback(UpdateRelay.lateReason(deadline: deadline)))
                }
            }
        }
        return .failure(CancellationError())
    }

    private func bestAnswer<Value: Sendable>(
        _ events: AsyncStream<RelayEvent<Value>>,
        policy: FetchPolicy
    ) async -> RelayOutcome<Value> {
        let deadline = answerDeadlineSeconds
        var best: Fetched<Value>?
        var deadlinePassed = false
        for await event in events {
            switch event {
            case .update(let update):
                best = update
                // A cached update that arrives after the deadline (a slow cache read, or a
                // deadline of 0) is answered at once rather than waiting for the network.
                if deadlinePassed, UpdateRelay.freshDataFollows(update, policy: policy) {
                    return .answer(UpdateRelay.late(update, deadline: deadline))
                }
            case .finished:
                return best.map { .answer($0) } ?? .failure(MoviesError.notCached("no answer was produced"))
            case .failed(let error):
                guard var cached = best else { return .failure(error) }
                cached.freshness.remoteError = UpdateRelay.describe(error)
                return .answer(cached)
            case .deadlinePassed:
                deadlinePassed = true
                if let cached = best, UpdateRelay.freshDataFollows(cached, policy: policy) {
                    return .answer(UpdateRelay.late(cached, deadline: deadline))
                }
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

    /// Whether `update` is a cached one that the policy promises to follow with a network fetch
    /// (so answering it early is worth a `remoteError`); any other update is final or nearly so.
    static func freshDataFollows<Value: Sendable>(_ update: Fetched<Value>, policy: FetchPolicy) -> Bool {
        policy == .cacheThenNetwork && update.freshness.origin == .cache && update.freshness.remoteError == nil
    }

    /// `cached`, marked as answered because TMDB missed the answer deadline.
    static func late<Value: Sendable>(_ cached: Fetched<Value>, deadline: Int) -> Fetched<Value> {
        var late = cached
        late.freshness.remoteError = lateReason(deadline: deadline)
        return late
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
