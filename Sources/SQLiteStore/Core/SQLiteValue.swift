import FoundationEssentials

/// A value bound to a statement parameter, one per SQLite storage class.
///
/// See <https://www.sqlite.org/datatype3.html>.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
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
