import FoundationEssentials

/// A value bound to a statement parameter, one per SQLite storage class.
///
/// See <https://www.sqlite.org/datatype3.html>.
public enum SQLiteValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text, bound with its byte count (embedded NULs kept).
    case text(String)
    /// Bytes, bound with their count; an empty blob stays an empty blob, not NULL.
    case blob(Data)

    /// An integer value from an `Int`.
    public static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }

    /// Text, or `NULL` for `nil`.
    public static func optionalText(_ value: String?) -> SQLiteValue {
        value.map(SQLiteValue.text) ?? .null
    }

    /// A date as Unix seconds (`REAL`), the store's date representation.
    public static func date(_ value: Date) -> SQLiteValue { .real(value.timeIntervalSince1970) }
}
