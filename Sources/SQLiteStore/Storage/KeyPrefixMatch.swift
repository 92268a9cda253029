/// A SQL condition matching keys that start with any of some prefixes (all keys when none).
///
/// Uses `substr(key, 1, length(?)) = ?` rather than `LIKE`, so `%` and `_` in keys and prefixes are
/// ordinary characters and the match is case-sensitive. Parameters are numbered (`?NNN`) from
/// `firstParameter`, one per prefix, each used twice.
struct KeyPrefixMatch {
    /// The condition, for a `WHERE` clause.
    let sql: String
    /// The values for its parameters, in order.
    let values: [SQLiteValue]

    init(prefixes: [String], firstParameter: Int) {
        guard !prefixes.isEmpty else {
            sql = "1"
            values = []
            return
        }
        sql = prefixes.indices
            .map { offset in
                let parameter = firstParameter + offset
                return "substr(key, 1, length(?\(parameter))) = ?\(parameter)"
            }
            .joined(separator: " OR ")
        values = prefixes.map(SQLiteValue.text)
    }
}
