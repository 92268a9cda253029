import MoviesDomain

extension Owner {
    /// The `owner` column's value (state schema version 5): the uid, or -1 for the system.
    var storedValue: SQLiteValue { .integer(storedID) }

    /// The `owner` column's integer: the uid, or -1 for the system.
    var storedID: Int64 {
        switch self {
        case .system: -1
        case .user(let user): Int64(user.uid)
        }
    }

    /// The owner an `owner` column holds; `nil` for a value that is neither -1 nor a uid.
    init?(storedID: Int64) {
        if storedID == -1 {
            self = .system
        } else if let uid = UInt32(exactly: storedID) {
            self = .user(LocalUser(uid: uid))
        } else {
            return nil
        }
    }
}
