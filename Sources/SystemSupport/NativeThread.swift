import Glibc

/// A POSIX thread running one closure: for work that blocks (the Varlink event loop's
/// `epoll_wait`) or that must not share Swift's concurrency threads (the load generator), so it
/// never occupies a Swift concurrency or Dispatch worker.
public final class NativeThread: Sendable {
    private let handle: pthread_t
    /// Whether the thread was created (thread limits can refuse it).
    public let started: Bool

    /// Starts `body` on a new joinable thread; ``started`` says whether it could.
    public init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var created = pthread_t()
        started = pthread_create(&created, nil, { argument in
            guard let argument else { return nil }
            let body = Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue()
            body.run()
            return nil
        }, box) == 0
        handle = created
        if !started { Unmanaged<ThreadBody>.fromOpaque(box).release() }
    }

    /// Starts `body` on a new thread nobody joins; false when no thread could be created.
    public static func detached(_ body: @escaping @Sendable () -> Void) -> Bool {
        let thread = NativeThread(body)
        if thread.started { pthread_detach(thread.handle) }
        return thread.started
    }

    /// Waits for the thread to finish. Returns false if it never started.
    @discardableResult
    public func join() -> Bool {
        guard started else { return false }
        return pthread_join(handle, nil) == 0
    }
}

/// The closure handed through pthread_create's context pointer.
private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
