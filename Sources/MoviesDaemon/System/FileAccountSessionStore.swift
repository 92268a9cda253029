#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MoviesData
import MoviesDomain

/// `AccountSessionStore` in a file, one per owner: the system account's `account-session` beside
/// the state database, each local user's `account-sessions/UID` (a directory of mode 0700, which
/// must be the daemon user's own and writable by no one else: `SessionDirectory`); mode 0600,
/// owned by the daemon's user, JSON `{"session_id", "account_id", "username"}`, replaced
/// atomically and durably (write, fsync, rename, fsync of the directory: the new name is on disk
/// before `save` returns), never through a symbolic link. Without its file, the system account
/// reads systemd's `LoadCredential=tmdb-session` (the session id, optionally followed by
/// whitespace and the account id), for headless installs; a user's account never does.
public struct FileAccountSessionStore: AccountSessionStore {
    /// The session file's name in the state directory.
    public static let fileName = "account-session"
    /// The credential's name in `$CREDENTIALS_DIRECTORY`.
    public static let credentialName = "tmdb-session"
    /// The directory of the users' session files, beside the state database.
    public static let usersDirectoryName = "account-sessions"

    /// The session file.
    public let path: String
    /// The credential file, when systemd passed credentials.
    public let credentialPath: String?
    /// The file's directory and its name there.
    private let directory: String
    private let name: String
    /// Whether the directory is the users' one, checked before use (`SessionDirectory`).
    private let checked: Bool

    /// The store of `owner`'s session beside `statePath`; the system's with the credential of `environment`.
    public init(statePath: String, environment: [String: String], owner: Owner = .system) {
        let base = Self.stateDirectory(of: statePath)
        switch owner {
        case .system:
            directory = base
            name = Self.fileName
            checked = false
            credentialPath = environment["CREDENTIALS_DIRECTORY"].flatMap { $0.isEmpty ? nil : $0 + "/" + Self.credentialName }
        case .user(let user):
            directory = base + "/" + Self.usersDirectoryName
            name = String(user.uid)
            checked = true
            credentialPath = nil
        }
        path = directory + "/" + name
    }

    private static func stateDirectory(of statePath: String) -> String {
        let directory = (statePath as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    /// The uids with a session file under the state directory of `statePath` (their accounts are
    /// drained and pulled from the start).
    /// - Throws: when the users' directory exists but is not the daemon user's own, or is writable
    ///   by others (the message names it, its owner and mode, and what to do).
    public static func signedInUsers(statePath: String) throws(SessionFileError) -> [LocalUser] {
        let users = stateDirectory(of: statePath) + "/" + usersDirectoryName
        guard try SessionDirectory(path: users, checked: true, creating: false) != nil else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: users)) ?? []
        return names.compactMap { UInt32($0).map(LocalUser.init(uid:)) }.sorted { $0.uid < $1.uid }
    }

    private struct Stored: Codable {
        var session_id: String
        var account_id: Int
        var username: String?
    }

    /// The file's session, else the credential's (account id 0 when the credential has none).
    public func load() throws -> AccountSession? {
        if let text = try SessionDirectory(path: directory, checked: checked, creating: false)?.readText(name, limit: 64 * 1024) {
            guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(text.utf8)), !stored.session_id.isEmpty else {
                throw SessionFileError(message: "\(path) is not a moviesd session file; move it aside and sign in again (movies account login)")
            }
            return AccountSession(sessionID: stored.session_id, accountID: stored.account_id, username: stored.username)
        }
        guard let credentialPath, let text = try Self.read(credentialPath) else { return nil }
        let words = text.split(whereSeparator: \.isWhitespace)
        guard let first = words.first else { return nil }
        return AccountSession(sessionID: String(first), accountID: words.count > 1 ? Int(words[1]) ?? 0 : 0, username: nil)
    }

    /// Writes `session` to the file (0600), atomically, into a directory made 0700 when missing.
    public func save(_ session: AccountSession) throws {
        let data = try JSONEncoder().encode(Stored(session_id: session.sessionID, account_id: session.accountID, username: session.username))
        guard let opened = try SessionDirectory(path: directory, checked: checked, creating: true) else {
            throw SessionFileError(errno: ENOENT, path: directory)
        }
        try opened.replace(name, with: Array(data))
    }

    /// Deletes the file. With a session in the credential, nothing is deleted and it throws: that
    /// session would be used again (the administrator removes it from the unit).
    public func delete() throws {
        if let credentialPath, let text = try Self.read(credentialPath), text.contains(where: { !$0.isWhitespace }) {
            throw SessionFileError(message: "the session comes from systemd's LoadCredential=\(Self.credentialName) (\(credentialPath)); empty that file and restart moviesd to sign out")
        }
        try SessionDirectory(path: directory, checked: checked, creating: false)?.remove(name)
    }

    private static func read(_ path: String) throws -> String? {
        do throws(SystemCallError) {
            return try FileContents.readText(atPath: path, limit: 64 * 1024)
        } catch where error.code == ENOENT {
            return nil
        } catch {
            throw SessionFileError(message: "cannot read \(path): \(error.reason)")
        }
    }
}

/// The session file could not be read or written. Its message never holds the session.
public struct SessionFileError: Error, CustomStringConvertible {
    /// One sentence.
    public let message: String

    init(message: String) {
        self.message = message
    }

    init(errno code: Int32, path: String, reading: Bool = false) {
        message = "cannot \(reading ? "read" : "write") \(path): \(String(cString: strerror(code)))"
    }

    public var description: String { message }
}
