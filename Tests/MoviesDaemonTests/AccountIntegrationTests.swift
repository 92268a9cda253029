import Foundation
import Glibc
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Synchronization
import Testing
import TMDBStub
@testable import MoviesDaemon
@testable import Varlink

typealias JSONValue = Varlink.JSONValue

/// The account methods over the daemon's own parts (composition root, TMDB client, state
/// database, session file) against the stub over HTTP: signing in, edits on TMDB and offline, an
/// expired session, signing out; the session never in a reply, a log or a database.
@Suite(.blocksThreads) struct AccountIntegrationTests {
    struct World {
        let stub: TMDBStubServer
        let directory: ScratchDirectory
        let container: AppDIContainer
        let service: MoviesVarlinkService
        let events: RecordingEventLog
        /// Every reply's and error's text, to look for the session in.
        let transcript = Transcript()

        final class Transcript: Sendable {
            private let texts = Mutex<[String]>([])
            func add(_ text: String) { texts.withLock { $0.append(text) } }
            var all: String { texts.withLock { $0.joined(separator: "\n") } }
        }

        /// Calls `method`; returns its reply, or the error's name and parameters.
        @discardableResult
        func call(_ method: String, _ parameters: [String: JSONValue] = [:], uid: UInt32 = getuid()) async -> Result<JSONValue, VarlinkError> {
            let writer = VarlinkReplyWriter(isStreaming: false) { _ in }
            let peer = PeerCredentials(pid: getpid(), uid: uid, gid: uid == getuid() ? getgid() : 65534)
            do throws(VarlinkError) {
                let parameters = JSONValue.object(try await service.handle(VarlinkCall(method: "io.moviesd.Movies." + method, parameters: parameters, peer: peer), replies: writer))
                transcript.add(String(decoding: parameters.serialized(), as: UTF8.self))
                // As a client reads it: stored reply bytes are spliced in unparsed.
                return .success((try? JSONValue.parse(parameters.serialized())) ?? parameters)
            } catch {
                transcript.add(error.name + String(decoding: JSONValue.object(error.parameters).serialized(), as: UTF8.self))
                return .failure(error)
            }
        }

        func signIn(uid: UInt32 = getuid()) async throws {
            let first = try await call("AccountLogin", uid: uid).get()
            #expect(first["signedIn"] == .bool(false))
            #expect(first["approvalUrl"]?.stringValue?.hasPrefix("https://www.themoviedb.org/authenticate/") == true)
            _ = stub.account.approveAllTokens()
            let second = try await call("AccountLogin", uid: uid).get()
            #expect(second["signedIn"] == .bool(true))
            #expect(second["accountId"] == .int(22011))
        }

        /// The caller's own session file (each local user's is theirs: `account-sessions/UID`).
        var sessionFile: String { directory.file(FileAccountSessionStore.usersDirectoryName + "/\(getuid())") }
    }

    static func withWorld(
        credential: LoadedCredential = .bearer("stub-token"), configure: (inout DaemonConfiguration) -> Void = { _ in },
        _ body: (World) async throws -> Void
    ) async throws {
        let stub = TMDBStubServer(configuration: TMDBStubConfiguration())
        let ports = try stub.start()
        defer { stub.stop() }
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        var configuration = DaemonConfiguration.defaults
        configuration.remote.baseURL = "http://127.0.0.1:\(ports.port)/3/"
        configuration.remote.requestsPerSecond = 1000
        configuration.refresh.changeFeed = false
        configure(&configuration)
        let events = RecordingEventLog()
        let paths = DaemonPaths(socketPath: directory.file("io.moviesd.Movies"), databasePath: directory.file("cache.sqlite3"))
        let container = try AppDIContainer(configuration: configuration, paths: paths, credential: credential, events: events)
        let service = container.makeMoviesService(startedAt: Date(), daemonUID: getuid(), authorizedGID: nil)
        let world = World(stub: stub, directory: directory, container: container, service: service, events: events)
        do {
            try await body(world)
        } catch {
            await container.close()
            throw error
        }
        await container.close()
    }

    @Test func signInEditOnlineAndOfflineAndSignOut() async throws {
        try await Self.withWorld { world in
            let before = await world.call("AccountEdit", ["list": .string("watchlist"), "movieId": .int(603), "on": .bool(true)])
            #expect(before.failureName == "io.moviesd.Movies.NotSignedIn")
            try await world.signIn()

            // The session: a 0600 file beside the state database.
            var info = stat()
            #expect(stat(world.sessionFile, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600)

            let online = try await world.call("AccountEdit", ["list": .string("watchlist"), "movieId": .int(603), "on": .bool(true)]).get()
            #expect(online["onTmdb"] == .bool(true))
            #expect(world.stub.account.ids(on: .watchlist) == [603])

            // TMDB down: the edit is kept and shown, pending.
            var down = world.stub.faults
            down.down = true
            try world.stub.updateFaults(down)
            let offline = try await world.call("AccountEdit", ["list": .string("favorite"), "movieId": .int(550), "on": .bool(true), "waitSeconds": .double(0.5)]).get()
            #expect(offline["onTmdb"] == .bool(false))
            #expect(offline["entry"]?["state"] == .string("pending"))
            let lists = try await world.call("Account").get()
            #expect(lists["favorites"]?.arrayValue?.first?["id"] == .int(550))
            #expect(lists["favorites"]?.arrayValue?.first?["pending"] == .bool(true))
            let status = try await world.call("Status").get()
            #expect(status["account"]?["pending"] == .int(1))
            let someoneElse = try await world.call("Status", uid: 65534).get()
            // Another user sees their own account (signed out), nothing of this one's.
            #expect(someoneElse["account"]?["activity"] == .string("signed_out"))
            #expect(someoneElse["account"]?["pending"] == .int(0))
            #expect(someoneElse["account"]?["accountId"] == nil)
            #expect(someoneElse["systemAccount"] == nil)
            #expect(someoneElse["version"] != nil)
            #expect(status["account"]?["activity"] == .string("offline"))
            #expect(world.stub.account.ids(on: .favorite).isEmpty)

            // Back: Sync with a wait ends with everything on TMDB and in its lists.
            try world.stub.resetFaultsAndCounters()
            let synced = try await world.call("Sync", ["waitSeconds": .double(20)]).get()
            #expect(synced["sync"]?["pending"] == .int(0))
            #expect(synced["sync"]?["unconfirmed"] == .int(0))
            #expect(world.stub.account.ids(on: .favorite) == [550])

            // The session never leaves the session file.
            let session = try String(contentsOfFile: world.sessionFile, encoding: .utf8)
            let sessionID = try #require(session.split(separator: "\"").drop { $0 != "session_id" }.dropFirst(2).first.map(String.init))
            #expect(sessionID.count >= 20)
            #expect(!world.transcript.all.contains(sessionID))
            #expect(!world.events.events.contains { $0.message.contains(sessionID) })
            for name in try FileManager.default.contentsOfDirectory(atPath: world.directory.path) where name.hasPrefix("cache.sqlite3") || name.hasPrefix("state.sqlite3") {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: world.directory.file(name)))
                #expect(bytes.range(of: Data(sessionID.utf8)) == nil, "\(name) holds the session")
            }

            let logout = try await world.call("AccountLogout").get()
            #expect(logout["pending"] == .int(0))
            #expect(!FileManager.default.fileExists(atPath: world.sessionFile))
            #expect(world.stub.account.sessionCount == 0, "the session is ended on TMDB too")
        }
    }

    @Test func theServiceSendsAnOfflineEditByItselfWhenTMDBIsBack() async throws {
        try await Self.withWorld { world in
            let sync = try #require(world.container.accounts)
            let service = Task { await sync.run() }
            defer { service.cancel() }
            try await world.signIn()
            var down = world.stub.faults
            down.down = true
            try world.stub.updateFaults(down)
            let offline = try await world.call("AccountEdit", ["list": .string("watchlist"), "movieId": .int(603), "on": .bool(true), "waitSeconds": .double(0.2)]).get()
            #expect(offline["onTmdb"] == .bool(false))
            try world.stub.resetFaultsAndCounters()
            // Nobody calls Sync: the service's retry (2 s after the failure) sends it.
            let deadline = ContinuousClock.now + .seconds(ProcessDeadline.replySeconds)
            while world.stub.account.ids(on: .watchlist).isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(world.stub.account.ids(on: .watchlist) == [603])
        }
    }

    @Test func anExpiredSessionKeepsEditsUntilTheNextSignIn() async throws {
        try await Self.withWorld { world in
            try await world.signIn()
            _ = world.stub.account.expireSessions()
            let edit = try await world.call("AccountEdit", ["list": .string("rated"), "movieId": .int(603), "rating": .double(9)]).get()
            #expect(edit["onTmdb"] == .bool(false))
            #expect(edit["sync"]?["activity"] == .string("blocked_on_auth"))
            let blocked = try await world.call("Sync", ["waitSeconds": .double(5)]).get()
            #expect(blocked["sync"]?["activity"] == .string("blocked_on_auth"))
            #expect(blocked["sync"]?["pending"] == .int(1))
            let pending = try await world.call("Pending").get()
            #expect(pending["entries"]?.arrayValue?.first?["state"] == .string("blocked_on_auth"))
            #expect(world.stub.account.rating(of: 603) == nil)

            try await world.signIn()
            let synced = try await world.call("Sync", ["waitSeconds": .double(20)]).get()
            #expect(synced["sync"]?["pending"] == .int(0))
            #expect(world.stub.account.rating(of: 603) == 9)
        }
    }

    @Test func aRefusedEditIsUndoneAndItsReasonKept() async throws {
        try await Self.withWorld { world in
            try await world.signIn()
            let unknown = 999_999_999
            let edit = try await world.call("AccountEdit", ["list": .string("watchlist"), "movieId": .int(Int64(unknown)), "on": .bool(true)]).get()
            #expect(edit["entry"]?["state"] == .string("rejected"))
            #expect(edit["entry"]?["lastError"]?.stringValue?.contains("code 34") == true)
            let lists = try await world.call("Account").get()
            #expect(lists["watchlist"] == .array([]))
            let dismissed = try await world.call("Pending", ["dismissRejected": .bool(true)]).get()
            #expect(dismissed["entries"] == .array([]))
        }
    }

    @Test func aRefreshPrefetchesAndPinsTheAccountsWatchlist() async throws {
        try await Self.withWorld { world in
            try await world.signIn()
            // Added on the TMDB website: the refresh pulls the lists first.
            world.stub.account.replace(watchlist: [550])
            let refresh = try await world.call("Refresh").get()
            #expect(refresh["summary"]?["failed"] == .int(0))
            let lists = try await world.call("Account").get()
            #expect(lists["watchlist"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [550])
            let cached = try await world.call("Movie", ["id": .int(550), "policy": .string("cache_only")]).get()
            #expect(cached["movie"]?["title"] == .string("Fight Club"))
            let purged = try await world.call("Purge", ["movieId": .int(550)]).get()
            #expect(purged["pinned"] == .int(1), "the account's watchlist is pinned like a watchlist")
        }
    }

    @Test func withoutACredentialTheAccountSaysWhy() async throws {
        try await Self.withWorld(credential: .none) { world in
            let login = await world.call("AccountLogin")
            #expect(login.failureName == "io.moviesd.Movies.NotSignedIn")
            #expect(login.failureReason?.contains("credential") == true)
            // Where to configure the token, then login again: no vague "README: token".
            let reason = login.failureReason ?? ""
            #expect(reason.contains("MOVIESD_TMDB_TOKEN") && reason.contains("/etc/moviesd/tmdb-token") && reason.contains("~/.config/moviesd/tmdb-token"), "\(reason)")
            #expect(reason.hasSuffix("then restart moviesd, and run 'movies account login' again"), "\(reason)")
            #expect(!reason.contains("README"))
            let status = try await world.call("Status").get()
            #expect(status["account"] == nil)
        }
    }
}

extension Result where Failure == VarlinkError {
    /// The error's name, for a failed call.
    var failureName: String? {
        if case .failure(let error) = self { return error.name }
        return nil
    }

    /// The error's `reason`, for a failed call.
    var failureReason: String? {
        if case .failure(let error) = self { return error.parameters["reason"]?.stringValue }
        return nil
    }
}
