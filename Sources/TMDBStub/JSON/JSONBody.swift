import Foundation

/// A request body parsed as a JSON object, with member reads that tell booleans from numbers
/// (Foundation hands both out as `NSNumber`, and `1 as? Bool` succeeds).
struct JSONBody {
    /// The object's members.
    let members: [String: Any]

    /// `bytes` parsed as a JSON object; nil when it is not one.
    init?(_ bytes: [UInt8]) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else { return nil }
        members = object
    }

    /// Wraps an already parsed object.
    init(members: [String: Any]) {
        self.members = members
    }

    /// Whether member `key` is present (even as `null`).
    func has(_ key: String) -> Bool {
        members[key] != nil
    }

    /// Member `key` if it is a string.
    func string(_ key: String) -> String? {
        members[key] as? String
    }

    /// Member `key` if it is `true` or `false` (not a number).
    func bool(_ key: String) -> Bool? {
        members[key].flatMap(Self.bool)
    }

    /// Member `key` if it is a finite number (not a boolean).
    func number(_ key: String) -> Double? {
        members[key].flatMap(Self.number)
    }

    /// Member `key` if it is a number without a fraction that fits an `Int`.
    func integer(_ key: String) -> Int? {
        members[key].flatMap(Self.integer)
    }

    /// `value` if it is `true` or `false`.
    static func bool(_ value: Any) -> Bool? {
        if let number = value as? NSNumber {
            return type(of: number) == type(of: NSNumber(value: true)) ? number.boolValue : nil
        }
        return value as? Bool
    }

    /// `value` if it is a finite number (not a boolean).
    static func number(_ value: Any) -> Double? {
        guard let number = value as? NSNumber, type(of: number) != type(of: NSNumber(value: true)),
              number.doubleValue.isFinite else { return nil }
        return number.doubleValue
    }

    /// `value` if it is a number without a fraction that fits an `Int`.
    static func integer(_ value: Any) -> Int? {
        guard let number = number(value), number == number.rounded(), abs(number) < 1e15 else { return nil }
        return Int(number)
    }
}
