import Varlink

/// How `--json` prints a call's replies: each line one JSON object.
///
/// By default only the answer is printed: the final reply of the call, once (a cached page
/// followed by a fresh one prints the fresh one). With `--stream` every reply is printed as it
/// comes, each with an `update` member: `"cached"` for a cached answer a fresher one follows,
/// `"progress"` for a step of a refresh, and `"final"` on the last line of every call. A failure is
/// one line `{"error": NAME, "exitCode": N, "message": TEXT, "parameters": {…}}` instead of the
/// answer, `exitCode` being the program's own.
struct JSONOutput {
    /// What a line printed with `--stream` is.
    enum Update: String, Sendable {
        /// A cached answer; a fresher one (or the final answer with `remoteError`) follows.
        case cached
        /// One step of a refresh.
        case progress
        /// The answer (or the error) that ends the call.
        case final
    }

    /// Whether every reply is printed (`--stream`), not only the final one.
    let streams: Bool

    /// The line for `value`, marked with `update` under `--stream`.
    func line(_ value: JSONValue, update: Update) -> String {
        var value = value
        if streams, case .object(var members) = value {
            members["update"] = .string(update.rawValue)
            value = .object(members)
        }
        return String(decoding: value.serialized(), as: UTF8.self)
    }

    /// `answer` with `freshness.remoteError` set to `reason` when it has none: the cached answer
    /// that ended a call TMDB failed is an answer like any other, saying why it is not fresh.
    static func withRemoteError(_ answer: JSONValue, reason: String?) -> JSONValue {
        guard let reason, case .object(var members) = answer, case .object(var freshness)? = members["freshness"] else { return answer }
        if freshness["remoteError"]?.stringValue == nil { freshness["remoteError"] = .string(reason) }
        members["freshness"] = .object(freshness)
        return .object(members)
    }
}
