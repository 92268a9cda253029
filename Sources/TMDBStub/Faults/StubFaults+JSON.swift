import Foundation

extension StubFaults {
    /// A control request body could not be applied.
    public struct InvalidFaults: Error, CustomStringConvertible {
        /// What is wrong, in one sentence.
        public var description: String
    }

    /// The faults as the control endpoint's JSON.
    public var json: JSONValue {
        .object([
            ("latencyMs", .int(latencyMs)),
            ("errorRate", .double(errorRate)),
            ("rateLimit", .object([("share", .double(rateLimit.share)), ("retryAfter", .int(rateLimit.retryAfter))])),
            ("malformedJSON", .double(malformedJSON)),
            ("truncateBody", .double(truncateBody)),
            ("reset", .double(reset)),
            ("hang", .double(hang)),
            ("down", .bool(down)),
            ("sessionExpired", .bool(sessionExpired)),
            ("dropAfterApply", .double(dropAfterApply)),
            ("unreadableWrites", .double(unreadableWrites)),
            ("writesOnly", .bool(writesOnly)),
            ("listsOnly", .bool(listsOnly)),
            ("export", .string(export)),
            ("exportMissing", .array(exportMissing.map(JSONValue.string))),
            ("exportBytesPerSecond", .int(exportBytesPerSecond)),
        ])
    }

    /// These faults with the members present in the JSON object `body` replaced; absent members keep
    /// their value. Shares accept numbers or booleans (true = 1), switches booleans or numbers (> 0 =
    /// on). The account faults also accept their snake_case names (`session_expired`,
    /// `drop_after_apply`, `unreadable_writes`, `writes_only`, `lists_only`).
    public func applying(jsonBody body: [UInt8]) throws(InvalidFaults) -> StubFaults {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            throw InvalidFaults(description: "The body must be a JSON object such as {\"errorRate\":0.5}.")
        }
        var faults = self
        for (key, value) in object {
            switch key {
            case "latencyMs": faults.latencyMs = Int(try Self.number(value, key))
            case "errorRate": faults.errorRate = try Self.share(value, key)
            case "malformedJSON": faults.malformedJSON = try Self.share(value, key)
            case "truncateBody": faults.truncateBody = try Self.share(value, key)
            case "reset": faults.reset = try Self.share(value, key)
            case "hang": faults.hang = try Self.share(value, key)
            case "down": faults.down = try Self.share(value, key) > 0
            case "sessionExpired", "session_expired": faults.sessionExpired = try Self.share(value, key) > 0
            case "dropAfterApply", "drop_after_apply": faults.dropAfterApply = try Self.share(value, key)
            case "unreadableWrites", "unreadable_writes": faults.unreadableWrites = try Self.share(value, key)
            case "writesOnly", "writes_only": faults.writesOnly = try Self.share(value, key) > 0
            case "listsOnly", "lists_only": faults.listsOnly = try Self.share(value, key) > 0
            case "export":
                guard let kind = value as? String, ["", "truncated", "corrupt"].contains(kind) else {
                    throw InvalidFaults(description: "export must be \"\", \"truncated\" or \"corrupt\".")
                }
                faults.export = kind
            case "exportMissing", "export_missing":
                guard let days = value as? [String] else {
                    throw InvalidFaults(description: "exportMissing must be a list of days (YYYY-MM-DD) or [\"*\"].")
                }
                faults.exportMissing = days
            case "exportBytesPerSecond", "export_bytes_per_second":
                faults.exportBytesPerSecond = Int(try Self.number(value, key))
            case "rateLimit":
                if let limit = value as? [String: Any] {
                    faults.rateLimit.share = try limit["share"].map { value throws(InvalidFaults) in try Self.share(value, "rateLimit.share") } ?? 1
                    faults.rateLimit.retryAfter = Int(try limit["retryAfter"].map { value throws(InvalidFaults) in try Self.number(value, "rateLimit.retryAfter") } ?? 1)
                } else {
                    faults.rateLimit.share = try Self.share(value, key)
                }
            default:
                throw InvalidFaults(description: "Unknown fault \"\(key)\"; see GET /faults for the names.")
            }
        }
        return faults
    }

    private static func number(_ value: Any, _ key: String) throws(InvalidFaults) -> Double {
        guard let number = (value as? NSNumber)?.doubleValue, number.isFinite, number >= 0 else {
            throw InvalidFaults(description: "\(key) must be a non-negative number.")
        }
        return number
    }

    private static func share(_ value: Any, _ key: String) throws(InvalidFaults) -> Double {
        let number = try number(value, key)
        guard number <= 1 else { throw InvalidFaults(description: "\(key) must be a share between 0 and 1.") }
        return number
    }
}
