import FoundationEssentials
import MoviesData
import MoviesDomain

/// A scripted `MoviesRemote`: answers each request from a per-request queue of results (the last
/// one repeats) or from a handler closure; records every request and ETag; can hold fetches in
/// flight until released, all of them or those a predicate picks (for single-flight, cancellation
/// and concurrency tests). Held fetches honour cancellation.
public actor ScriptedMoviesRemote: MoviesRemote {
    /// Answers a request that has no scripted result; gets the request and the ETag sent.
    public typealias Handler = @Sendable (RemoteRequest, String?) throws -> RemoteResponse

    private var scripted: [RemoteRequest: [Result<RemoteResponse, MoviesError>]] = [:]
    private var handler: Handler?
    private var holding = false
    /// Which requests are held besides all of them after `hold()` (`hold(where:)`).
    private var holdsMatching: (@Sendable (RemoteRequest) -> Bool)?
    private var held: [Int: CheckedContinuation<Void, any Error>] = [:]
    /// Who waits in `untilHeld(_:)`, and for how many held fetches, by id.
    private var heldWaiters: [Int: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
    private var lastWaiterID = 0
    private var lastHoldID = 0
    /// Every request fetched, in order.
    public private(set) var requests: [RemoteRequest] = []
    /// The ETag sent with each request, in order.
    public private(set) var etags: [String?] = []

    /// Creates a remote; `handler` answers requests without a scripted result.
    public init(handler: Handler? = nil) {
        self.handler = handler
    }

    /// The number of fetches made.
    public var fetchCount: Int { requests.count }

    /// The number of fetches currently held.
    public var heldCount: Int { held.count }

    /// Appends `result` to the answers for `request`; the last scripted answer repeats.
    public func script(_ request: RemoteRequest, _ result: Result<RemoteResponse, MoviesError>) {
        scripted[request, default: []].append(result)
    }

    /// Replaces the handler for requests without a scripted result.
    public func setHandler(_ handler: Handler?) { self.handler = handler }

    /// Holds every later fetch until `release()`.
    public func hold() { holding = true }

    /// Holds every later fetch of a request that `matches` (one owner's list, say) until
    /// `release()`; the others are answered.
    public func hold(where matches: @escaping @Sendable (RemoteRequest) -> Bool) { holdsMatching = matches }

    /// Returns once at least `count` fetches are held: woken as each is held, no polling; or when
    /// the calling task is cancelled (a test's time limit).
    public func untilHeld(_ count: Int) async {
        guard held.count < count else { return }
        lastWaiterID += 1
        let id = lastWaiterID
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume()
                } else {
                    heldWaiters[id] = (count, continuation)
                }
            }
        } onCancel: {
            Task { await self.stopWaiting(id) }
        }
    }

    private func stopWaiting(_ id: Int) {
        heldWaiters.removeValue(forKey: id)?.continuation.resume()
    }

    /// Releases held fetches and stops holding.
    public func release() {
        holding = false
        holdsMatching = nil
        let waiting = held
        held = [:]
        for continuation in waiting.values { continuation.resume() }
    }

    /// Waits (bounded, about 5 s) until at least `count` fetches are held; returns whether they are.
    @discardableResult
    public func waitForHeldFetches(_ count: Int) async -> Bool {
        for _ in 0..<5000 {
            if held.count >= count { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return held.count >= count
    }

    /// Records the request, waits while held, then answers from the script or the handler.
    public func fetch(_ request: RemoteRequest, etag: String?) async throws -> RemoteResponse {
        requests.append(request)
        etags.append(etag)
        if holding || holdsMatching?(request) == true { try await waitForRelease() }
        if var queue = scripted[request], let first = queue.first {
            if queue.count > 1 {
                queue.removeFirst()
                scripted[request] = queue
            }
            return try first.get()
        }
        if let handler { return try handler(request, etag) }
        throw MoviesError(code: .remoteUnavailable, message: "no scripted answer for \(request)")
    }

    private func waitForRelease() async throws {
        lastHoldID += 1
        let id = lastHoldID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    held[id] = continuation
                    wakeHeldWaiters()
                }
            }
        } onCancel: {
            Task { await self.cancelHeld(id) }
        }
    }

    private func wakeHeldWaiters() {
        for (id, waiter) in heldWaiters where waiter.count <= held.count {
            heldWaiters[id] = nil
            waiter.continuation.resume()
        }
    }

    private func cancelHeld(_ id: Int) {
        held.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }
}
