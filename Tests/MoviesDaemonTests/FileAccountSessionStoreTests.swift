import Foundation
import Glibc
import MoviesData
import MoviesDomain
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

    // MARK: - The users' directory (issue 45)

    static let session = AccountSession(sessionID: "abcdef0123456789abcdef0123456789abcdef01", accountID: 22011, username: "stub-user")

    @Test(arguments: [Owner.system, Owner.user(LocalUser(uid: 1000))])
    func aLinkPlantedAtTheTemporaryNameIsNotFollowed(owner: Owner) throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let store = FileAccountSessionStore(statePath: directory.file("state.sqlite3"), environment: [:], owner: owner)
        let victim = try directory.write("victim", "root's own file\n")
        if owner != .system { #expect(mkdir(directory.file("account-sessions"), 0o700) == 0) }
        #expect(symlink(victim, store.path + ".tmp") == 0)
        try store.save(Self.session)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "root's own file\n", "the link's target is untouched")
        #expect(try store.load() == Self.session)
        var info = stat()
        #expect(lstat(store.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_mode & 0o777 == 0o600)
        #expect(lstat(store.path + ".tmp", &info) != 0, "no temporary file is left")
    }

    @Test func aLinkAtTheSessionsNameIsReplacedNotFollowedNorRead() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let store = FileAccountSessionStore(statePath: directory.file("state.sqlite3"), environment: [:], owner: .user(LocalUser(uid: 1000)))
        let victim = try directory.write("victim", #"{"session_id":"not-yours","account_id":1}"#)
        #expect(mkdir(directory.file("account-sessions"), 0o700) == 0)
        #expect(symlink(victim, store.path) == 0)
        #expect(throws: SessionFileError.self) { try store.load() }
        try store.save(Self.session)
        #expect(try String(contentsOfFile: victim, encoding: .utf8).contains("not-yours"))
        #expect(try store.load() == Self.session)
    }

    @Test func aUsersDirectoryOthersMayWriteIsRefusedWithWhatToDo() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let users = directory.file("account-sessions")
        #expect(mkdir(users, 0o700) == 0 && chmod(users, 0o770) == 0)
        let store = FileAccountSessionStore(statePath: directory.file("state.sqlite3"), environment: [:], owner: .user(LocalUser(uid: 1000)))
        let expected = "\(users) is owned by uid \(geteuid()) with mode 770"
        #expect { try store.save(Self.session) } throws: { "\($0)".contains(expected) && "\($0)".contains("chmod 0700 \(users)") }
        #expect { try store.load() } throws: { "\($0)".contains(expected) }
        #expect { try FileAccountSessionStore.signedInUsers(statePath: directory.file("state.sqlite3")) } throws: { "\($0)".contains(expected) }
        #expect(access(store.path, F_OK) != 0, "nothing was written into it")
        // The daemon refuses to start, with the same sentence.
        let paths = DaemonPaths(socketPath: directory.file("io.moviesd.Movies"), databasePath: directory.file("cache.sqlite3"))
        #expect { _ = try AppDIContainer(configuration: .defaults, paths: paths, credential: .none) } throws: { error in
            guard let error = error as? StartupError else { return false }
            return error.message.hasPrefix("moviesd: ") && error.message.contains(expected) && error.exitCode == StartupError.permissionExitCode
        }
        // Made private again, it is used.
        #expect(chmod(users, 0o700) == 0)
        try store.save(Self.session)
        #expect(try FileAccountSessionStore.signedInUsers(statePath: directory.file("state.sqlite3")) == [LocalUser(uid: 1000)])
    }

    @Test func aUsersDirectoryOfAnotherOwnerIsRefused() throws {
        guard getuid() == 0 else {
            // Changing a directory's owner needs root; under CI=true a skip is a failure.
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("root is required under CI=true (to give a directory another owner)")
            } else {
                print("◇ skipped: aUsersDirectoryOfAnotherOwnerIsRefused needs root (to give a directory another owner)")
            }
            return
        }
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let users = directory.file("account-sessions")
        #expect(mkdir(users, 0o700) == 0 && chown(users, 65534, 65534) == 0)
        let store = FileAccountSessionStore(statePath: directory.file("state.sqlite3"), environment: [:], owner: .user(LocalUser(uid: 1000)))
        #expect { try store.save(Self.session) } throws: { "\($0)".contains("\(users) is owned by uid 65534 with mode 700") }
        #expect(access(store.path, F_OK) != 0, "nothing was written into it")
    }

    @Test func aLinkInPlaceOfTheUsersDirectoryIsRefused() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let elsewhere = try directory.makeDirectory("elsewhere")
        #expect(symlink(elsewhere, directory.file("account-sessions")) == 0)
        let store = FileAccountSessionStore(statePath: directory.file("state.sqlite3"), environment: [:], owner: .user(LocalUser(uid: 1000)))
        #expect(throws: SessionFileError.self) { try store.save(Self.session) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }
}
