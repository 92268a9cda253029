import Glibc

/// A joinable POSIX thread running one closure (the load generator must not share Swift's two
/// concurrency threads with the code under test, and wants exactly as many threads as asked).
final class NativeThread: Sendable {
    private let handle: pthread_t
    private let started: Bool

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) {
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

    /// Waits for the thread to finish. Returns false if it never started.
    @discardableResult
    func join() -> Bool {
        guard started else { return false }
        return pthread_join(handle, nil) == 0
    }
}

/// The closure handed through pthread_create's context pointer.
private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
