import Foundation
import Glibc
import MoviesData
import Testing
@testable import MoviesDaemon

/// The session file beside the state database, and systemd's tmdb-session credential.
@Suite struct FileAccountSessionStoreTests {
    @Test func aSavedSessionIsA0600FileReadBack() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let store = FileAccountSessionStore(statePath: directory.file("state.sqlite3"), environment: [:])
        #expect(try store.load() == nil)
        try store.save(AccountSession(sessionID: "abcdef0123456789abcdef0123456789abcdef01", accountID: 22011, username: "stub-user"))
        var info = stat()
        #expect(stat(directory.file("account-session"), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try store.load() == AccountSession(sessionID: "abcdef0123456789abcdef0123456789abcdef01", accountID: 22011, username: "stub-user"))
        #expect(!"\(try #require(try store.load()))".contains("abcdef0123"), "its description shows no secret")
        try store.delete()
        #expect(try store.load() == nil)
    }

    @Test func theCredentialServesHeadlessInstallsAndCannotBeSignedOutOfHere() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let credentials = directory.file("credentials")
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        let store = FileAccountSessionStore(statePath: directory.file("state.sqlite3"), environment: ["CREDENTIALS_DIRECTORY": credentials])
        // The package creates it empty: no session.
        FileManager.default.createFile(atPath: credentials + "/tmdb-session", contents: Data())
        #expect(try store.load() == nil)
        try "  0123456789abcdef0123456789abcdef01234567 22011\n".write(toFile: credentials + "/tmdb-session", atomically: true, encoding: .utf8)
        #expect(try store.load() == AccountSession(sessionID: "0123456789abcdef0123456789abcdef01234567", accountID: 22011, username: nil))
        // A session file of a sign-in wins; signing out keeps both while the credential holds one.
        try store.save(AccountSession(sessionID: "ffffffffffffffffffffffffffffffffffffffff", accountID: 7, username: "x"))
        #expect(try store.load()?.accountID == 7)
        #expect(throws: SessionFileError.self) { try store.delete() }
        #expect(try store.load()?.accountID == 7, "nothing was deleted")
    }

    @Test func aDamagedSessionFileSaysWhatToDo() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        try "not json".write(toFile: directory.file("account-session"), atomically: true, encoding: .utf8)
        let store = FileAccountSessionStore(statePath: directory.file("state.sqlite3"), environment: [:])
        #expect { try store.load() } throws: { "\($0)".contains("sign in again") }
    }
}
