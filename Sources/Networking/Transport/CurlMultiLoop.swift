import CCurl
import Synchronization
import SystemSupport

/// One libcurl multi handle driven by a thread of its own: it sleeps in `curl_multi_poll`, which
/// waits only for what each transfer needs (readable while waiting for an answer, writable while
/// sending) and for libcurl's own timeouts, so a request that hangs costs no CPU.
///
/// The multi handle is used on the loop's thread only; other threads queue additions and
/// removals in the inbox and wake the loop with `curl_multi_wakeup`, the one libcurl call that is
/// safe from any thread (https://curl.se/libcurl/c/curl_multi_wakeup.html).
final class CurlMultiLoop: Sendable {
    private struct Inbox {
        var added: [CurlExchange] = []
        var removed: [CurlExchange] = []
        var stopping = false
    }

    /// The longest sleep with nothing to do; libcurl's timers and the wake-up cut it short.
    private static let idlePollMilliseconds: Int32 = 60_000

    private let inbox = Mutex(Inbox())
    /// `curl_multi_*` is called on the loop thread only (`curl_multi_wakeup` excepted), and the
    /// handle is cleaned up by that thread when it stops.
    nonisolated(unsafe) private let multi: OpaquePointer

    /// Creates the multi handle and starts its thread; `nil` when either cannot be had. libcurl
    /// must be loaded (`ccurl_load`).
    init?() {
        guard let multi = ccurl_multi_init() else { return nil }
        self.multi = multi
        guard NativeThread.detached({ [self] in run() }) else {
            _ = ccurl_multi_cleanup(multi)
            return nil
        }
    }

    /// Starts `exchange` on the loop.
    func add(_ exchange: CurlExchange) {
        inbox.withLock { $0.added.append(exchange) }
        _ = ccurl_multi_wakeup(multi)
    }

    /// Stops `exchange` (its caller was answered already: cancelled or timed out).
    func remove(_ exchange: CurlExchange) {
        inbox.withLock { $0.removed.append(exchange) }
        _ = ccurl_multi_wakeup(multi)
    }

    /// Ends the loop: transfers still running are abandoned (their callers get `cancelled`), the
    /// multi handle is cleaned up and the thread exits.
    func stop() {
        inbox.withLock { $0.stopping = true }
        _ = ccurl_multi_wakeup(multi)
    }

    private func run() {
        var active: [OpaquePointer: CurlExchange] = [:]
        while true {
            let batch = inbox.withLock { inbox in
                let batch = inbox
                inbox.added = []
                inbox.removed = []
                return batch
            }
            for exchange in batch.added where !exchange.gate.isResolved {
                if ccurl_multi_add_handle(multi, exchange.easy) == CCURLE_OK {
                    active[exchange.easy] = exchange
                } else {
                    exchange.gate.resume(.failure(NetworkError.transport(message: "libcurl could not start the transfer.")))
                }
            }
            for exchange in batch.removed where active.removeValue(forKey: exchange.easy) != nil {
                _ = ccurl_multi_remove_handle(multi, exchange.easy)
            }
            if batch.stopping {
                for exchange in active.values {
                    _ = ccurl_multi_remove_handle(multi, exchange.easy)
                    exchange.gate.resume(.failure(NetworkError.cancelled))
                }
                active = [:]
                _ = ccurl_multi_cleanup(multi)
                return
            }
            var running: Int32 = 0
            _ = ccurl_multi_perform(multi, &running)
            var code: Int32 = 0
            while let easy = ccurl_multi_next_done(multi, &code) {
                guard let exchange = active.removeValue(forKey: easy) else { continue }
                _ = ccurl_multi_remove_handle(multi, easy)
                exchange.complete(code: code)
            }
            var ready: Int32 = 0
            _ = ccurl_multi_poll(multi, Self.idlePollMilliseconds, &ready)
        }
    }
}
