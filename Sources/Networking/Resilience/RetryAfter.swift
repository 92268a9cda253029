import Foundation

/// The one rule for TMDB's "not before" (RFC 9110 §10.2.3 `Retry-After`, sent with a 429 or a
/// 5xx): how the field reads, and how long a caller pauses after such an answer. Everything that
/// waits after one asks here: `NetworkService` (the bucket's pause, the retry of a 5xx),
/// `RemoteHealth` (the rate-limited pause of background work), the refresh scheduler and the
/// account outbox; each passes its own cap and its own back-off.
public enum RetryAfter {
    /// The field's value in whole seconds from `now`: delay-seconds (a fraction rounded up) or an
    /// IMF-fixdate HTTP date (`Wed, 21 Oct 2015 07:28:10 GMT`; one in the past gives 0). `nil`
    /// when it is neither, negative, or beyond any sensible wait (`Int32.max` seconds).
    public static func seconds(_ value: String, now: Date) -> Int? {
        let value = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(value) {
            guard seconds.isFinite, seconds >= 0, seconds < Double(Int32.max) else { return nil }
            return Int(seconds.rounded(.up))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
    }

    /// The pause after a refusal: the server's `retryAfter` when it gave one (TMDB's word beats
    /// our guess), otherwise `backoff()` (called only then, so a caller's count of failures moves
    /// only when its back-off is used); never below 0 nor above `cap`.
    public static func pause(retryAfter: Int?, cap: Double, backoff: () -> Double) -> Double {
        min(max(0, retryAfter.map(Double.init) ?? backoff()), max(0, cap))
    }
}
