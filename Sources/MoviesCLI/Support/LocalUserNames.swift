/// The password database as `movies` reads it: the uid a user name means (`--owner alice`) and the
/// names uids have (the owners of `watchlist ls --all-users`). Injected, so tests need no real users.
struct LocalUserNames: Sendable {
    /// The entries the keys (names or uids) find; those not found are left out.
    let lookUp: @Sendable ([String]) -> [(name: String, uid: UInt32)]

    /// The system's password database, through `getent` (`GetentPasswd`).
    static let system = LocalUserNames(lookUp: GetentPasswd.entries)

    /// The uid `text` means, as chown(1) reads an owner: a user's name, else a number (a uid, with
    /// or without a name); `nil` for neither.
    func uid(named text: String) -> UInt32? {
        if !text.isEmpty, let entry = lookUp([text]).first(where: { $0.name == text }) { return entry.uid }
        guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
        return UInt32(text)
    }

    /// The names of `uids` that have one, in one look-up.
    func names(of uids: Set<UInt32>) -> [UInt32: String] {
        var names: [UInt32: String] = [:]
        for entry in lookUp(uids.sorted().map(String.init)) where uids.contains(entry.uid) && names[entry.uid] == nil {
            names[entry.uid] = entry.name
        }
        return names
    }

    /// The user's name, or `uid N` when the password database has none.
    func describe(_ uid: UInt32) -> String {
        names(of: [uid])[uid] ?? "uid \(uid)"
    }
}
