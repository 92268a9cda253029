/// A message posted to the event loop from another thread.
enum LoopEvent: Sendable {
    /// A reply produced by the handler task of call `call` on connection `connection` (at `fd`),
    /// in pieces (the queue ends it with its NUL); a final one says the error it is, if any.
    case reply(fd: Int32, connection: UInt64, call: UInt64, message: [[UInt8]], isFinal: Bool, failure: String? = nil)
    /// Hand a copy of the loop's counts to the continuation.
    case metrics(CheckedContinuation<VarlinkServerMetrics, Never>)
    /// Stop accepting, let calls in flight finish for up to `graceSeconds`, then close everything.
    case shutdown(graceSeconds: Int)
    /// A connection the accepting loop admitted and hands to this loop (the one with the fewest).
    case adopt(fd: Int32, peer: PeerCredentials?)
}
