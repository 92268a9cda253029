import Foundation
import Glibc
import MoviesDaemon
import MoviesDomain
import MoviesTestSupport
import Testing
@testable import Varlink

/// Issue 31: every method of `io.moviesd.Movies`, called as root, alice and bob on each other's
/// data, over the daemon's real parts (composition root, state database, session files, the stub
/// over HTTP). Nothing private of one uid is returned to, changed by or deleted by another:
/// listings, details, pending edits, status and errors (an error never says that another user's
/// list exists: it is the very error of a name nobody uses).
@Suite(.blocksThreads) struct OwnerIsolationTests {
    static let root: UInt32 = 0
    static let alice: UInt32 = 1001
    static let bob: UInt32 = 1002
    typealias World = AccountIntegrationTests.World

    /// Every private answer bob gets, to compare before and after alice's activity (fields that
    /// move by themselves, such as ages and times, are dropped).
    static func bobsView(_ world: World) async -> [String] {
        var view: [String] = []
        let secret: [String: JSONValue] = ["name": .string("secret")]
        let calls: [(String, [String: JSONValue])] = [
            ("Watchlists", [:]), ("RecentQueries", [:]), ("Account", [:]), ("Pending", [:]), ("Sync", ["waitSeconds": .double(0)]),
            ("DeleteWatchlist", secret), ("RemoveFromWatchlist", secret.merging(["movieIds": .array([.int(1)])]) { $1 }),
            ("Refresh", ["watchlist": .string("secret")]), ("AccountLogout", [:]),
            ("DeleteWatchlist", ["name": .string("secret"), "owner": .int(Int64(alice))]),
            ("Watchlists", ["allUsers": .bool(true)]), ("Account", ["system": .bool(true)]),
        ]
        for (method, parameters) in calls {
            view.append("\(method): " + Self.stable(await world.call(method, parameters, uid: bob)))
        }
        let status = (try? await world.call("Status", uid: bob).get()) ?? .null
        view.append("Status.account: " + Self.stable(.success(status["account"] ?? .null)))
        view.append("Status.systemAccount: " + Self.stable(.success(status["systemAccount"] ?? .null)))
        // Alice's refresh is not bob's last refresh (nor its time and counts, the size of her lists).
        for key in ["last", "running", "progress"] {
            view.append("Status.refresh.\(key): " + Self.stable(.success(status["refresh"]?[key] ?? .null)))
        }
        view.append("Status.lastRefresh: " + Self.stable(.success(status["lastRefresh"] ?? .null)))
        return view
    }

    /// A reply or an error without the fields that change with time alone.
    static func stable(_ result: Result<JSONValue, VarlinkError>) -> String {
        func strip(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let members):
                return .object(members.filter { !["lastSuccessAt", "pulledAt", "nextAttemptAt", "createdAt"].contains($0.key) }.mapValues(strip))
            case .array(let items): return .array(items.map(strip))
            default: return value
            }
        }
        switch result {
        case .success(let value): return String(decoding: strip(value).serialized(), as: UTF8.self)
        case .failure(let error): return error.name + String(decoding: JSONValue.object(error.parameters).serialized(), as: UTF8.self)
        }
    }

    @Test("alice's lists, account, edits and history are hers: bob sees, changes and learns nothing of them")
    func everyMethodAsThreeUsers() async throws {
        try await AccountIntegrationTests.withWorld { world in
            var called = Set<String>()
            func call(_ method: String, _ parameters: [String: JSONValue] = [:], as uid: UInt32) async -> Result<JSONValue, VarlinkError> {
                called.insert(method)
                return await world.call(method, parameters, uid: uid)
            }
            // The system's list, as today: root's.
            _ = try await call("AddToWatchlist", ["name": .string("films"), "movieIds": .array([.int(603)]), "system": .bool(true)], as: Self.root).get()
            let bobBefore = await Self.bobsView(world)

            // Alice: a personal list, a shadow of the system's name, a search, her own account.
            let secret = try await call("AddToWatchlist", ["name": .string("secret"), "queries": .array([.string("alien")]), "movieIds": .array([.int(11)])], as: Self.alice).get()
            #expect(secret["watchlist"]?["owner"] == .int(Int64(Self.alice)))
            _ = try await call("AddToWatchlist", ["name": .string("films"), "movieIds": .array([.int(550)])], as: Self.alice).get()
            _ = try await call("RemoveFromWatchlist", ["name": .string("films"), "movieIds": .array([.int(550)])], as: Self.alice).get()
            _ = try await call("AddToWatchlist", ["name": .string("films"), "movieIds": .array([.int(550)])], as: Self.alice).get()
            _ = try await call("Search", ["query": .string("alien")], as: Self.alice).get()
            _ = try await call("Movie", ["id": .int(603)], as: Self.alice).get()
            _ = await call("Poster", ["path": .string("/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg"), "width": .int(92)], as: Self.alice)
            _ = try await call("Refresh", [:], as: Self.alice).get()
            try await world.signIn(uid: Self.alice)
            called.insert("AccountLogin")
            var down = world.stub.faults
            down.down = true
            try world.stub.updateFaults(down)
            let edit = try await call("AccountEdit", ["list": .string("favorite"), "movieId": .int(550), "on": .bool(true), "waitSeconds": .double(0)], as: Self.alice).get()
            #expect(edit["entry"]?["state"] == .string("pending"))
            // TMDB stays down until alice's edit is checked below, so it stays pending.
            #expect(try await call("Pending", as: Self.alice).get()["entries"]?.arrayValue?.count == 1)

            // Bob: every private answer is what it was before alice did anything.
            #expect(await Self.bobsView(world) == bobBefore)
            // Bob's listing: the system's films only.
            let bobs = try await call("Watchlists", as: Self.bob).get()
            #expect(bobs["watchlists"]?.arrayValue?.map { $0["name"] } == [.string("films")])
            #expect(bobs["watchlists"]?.arrayValue?.first?["owner"] == nil)
            // Bob cannot reach alice's list by naming her, nor the system's.
            for parameters: [String: JSONValue] in [["owner": .int(Int64(Self.alice))], ["system": .bool(true)]] {
                for method in ["AddToWatchlist", "RemoveFromWatchlist", "DeleteWatchlist"] {
                    let movies: [String: JSONValue] = method == "DeleteWatchlist" ? [:] : ["movieIds": .array([.int(1)])]
                    let attempt = await call(method, ["name": .string("secret")].merging(movies) { $1 }.merging(parameters) { $1 }, as: Self.bob)
                    #expect(attempt.failureName == "org.varlink.service.PermissionDenied", "\(method) \(parameters)")
                }
            }
            #expect(await call("Refresh", ["owner": .int(Int64(Self.alice))], as: Self.bob).failureName == "org.varlink.service.PermissionDenied")
            #expect(await call("Pending", ["system": .bool(true)], as: Self.bob).failureName == "org.varlink.service.PermissionDenied")
            #expect(await call("Invalidate", ["all": .bool(true)], as: Self.bob).failureName == "org.varlink.service.PermissionDenied")
            #expect(await call("Purge", ["all": .bool(true)], as: Self.bob).failureName == "org.varlink.service.PermissionDenied")
            #expect(await call("UpdateCatalogue", as: Self.bob).failureName == "org.varlink.service.PermissionDenied")
            // Bob's own doings stay his: his list of alice's name, his history, his clearing.
            _ = try await call("AddToWatchlist", ["name": .string("secret"), "movieIds": .array([.int(2)])], as: Self.bob).get()
            _ = try await call("DeleteWatchlist", ["name": .string("secret")], as: Self.bob).get()
            _ = await call("Search", ["query": .string("matrix")], as: Self.bob)
            _ = try await call("SaveRecentQuery", ["query": .string("bob's own")], as: Self.bob).get()
            _ = try await call("ClearRecentQueries", as: Self.bob).get()
            _ = await call("Sync", ["waitSeconds": .double(0)], as: Self.bob)
            _ = await call("AccountLogout", as: Self.bob)
            _ = await call("AccountEdit", ["list": .string("watchlist"), "movieId": .int(1), "on": .bool(true)], as: Self.bob)
            _ = try await call("Status", as: Self.bob).get()

            // Alice's data is as she left it.
            let alices = try await call("Watchlists", as: Self.alice).get()
            let names = alices["watchlists"]?.arrayValue?.map { "\($0["name"]?.stringValue ?? "")/\($0["owner"]?.intValue ?? -1)" }
            #expect(names == ["films/-1", "films/1001", "secret/1001"])
            #expect(try await call("RecentQueries", as: Self.alice).get()["queries"] == .array([.string("alien")]))
            let account = try await call("Account", as: Self.alice).get()
            #expect(account["favorites"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [550])
            #expect(try await call("Pending", as: Self.alice).get()["entries"]?.arrayValue?.count == 1)
            let aliceStatus = try await call("Status", as: Self.alice).get()
            #expect(aliceStatus["account"]?["accountId"] == .int(22011))
            #expect(aliceStatus["systemAccount"] == nil, "the system's account is the admin group's business")
            try world.stub.resetFaultsAndCounters()

            // Root: its own view by default; every user's with allUsers; may delete alice's list.
            let rootView = try await call("Watchlists", as: Self.root).get()
            #expect(rootView["watchlists"]?.arrayValue?.count == 1)
            let everyone = try await call("Watchlists", ["allUsers": .bool(true)], as: Self.root).get()
            #expect(everyone["watchlists"]?.arrayValue?.count == 3)
            #expect(await call("Pending", as: Self.root).failureName == "io.moviesd.Movies.NotSignedIn", "root's own account is not alice's")
            let rootStatus = try await call("Status", as: Self.root).get()
            #expect(rootStatus["account"]?["pending"] == .int(0))
            #expect(rootStatus["systemAccount"]?["activity"] == .string("signed_out"))
            _ = try await call("Invalidate", ["movieId": .int(603)], as: Self.root).get()
            _ = try await call("Purge", ["movieId": .int(1)], as: Self.root).get()
            #expect(await call("AccountLogout", ["system": .bool(true)], as: Self.root).failureName == "io.moviesd.Movies.NotSignedIn")
            _ = try await call("DeleteWatchlist", ["name": .string("secret"), "owner": .int(Int64(Self.alice))], as: Self.root).get()
            let after = try await call("Watchlists", as: Self.alice).get()
            #expect(after["watchlists"]?.arrayValue?.count == 2)

            // Alice's session: her own 0600 file in a 0700 directory, never in anyone's reply.
            let directory = world.directory.file("account-sessions")
            var info = stat()
            #expect(stat(directory, &info) == 0 && info.st_mode & 0o777 == 0o700)
            #expect(stat(directory + "/\(Self.alice)", &info) == 0 && info.st_mode & 0o777 == 0o600)
            let session = try String(contentsOfFile: directory + "/\(Self.alice)", encoding: .utf8)
            let sessionID = try #require(session.split(separator: "\"").drop { $0 != "session_id" }.dropFirst(2).first.map(String.init))
            #expect(!world.transcript.all.contains(sessionID))
            #expect(!world.events.events.contains { $0.message.contains(sessionID) })
            _ = try await call("AccountLogout", as: Self.alice).get()
            #expect(stat(directory + "/\(Self.alice)", &info) != 0)

            // Every method of the interface was called above.
            let methods = MoviesInterface.description.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("method ") else { return nil }
                return line.dropFirst("method ".count).split(separator: "(").first.map(String.init)
            }
            #expect(Set(methods).subtracting(called).isEmpty, "not called: \(Set(methods).subtracting(called).sorted())")
        }
    }

    @Test("a user's pending edits are bounded by PendingEditsPerUser, named in the error; the system's are not")
    func pendingEditsQuota() async throws {
        try await AccountIntegrationTests.withWorld(configure: { $0.users.pendingEdits = 2 }) { world in
            try await world.signIn(uid: Self.alice)
            var down = world.stub.faults
            down.down = true
            try world.stub.updateFaults(down)
            for id in [1, 2] {
                _ = try await world.call("AccountEdit", ["list": .string("watchlist"), "movieId": .int(Int64(id)), "on": .bool(true), "waitSeconds": .double(0)], uid: Self.alice).get()
            }
            // The same movie again replaces its entry: allowed.
            _ = try await world.call("AccountEdit", ["list": .string("watchlist"), "movieId": .int(2), "on": .bool(false), "waitSeconds": .double(0)], uid: Self.alice).get()
            let third = await world.call("AccountEdit", ["list": .string("watchlist"), "movieId": .int(3), "on": .bool(true), "waitSeconds": .double(0)], uid: Self.alice)
            guard case .failure(let error) = third else {
                Issue.record("a third pending edit was accepted")
                return
            }
            #expect(error.name == "io.moviesd.Movies.QuotaExceeded")
            #expect(error.parameters["limit"] == .string("PendingEditsPerUser"))
            #expect(error.parameters["maximum"] == .int(2))
            try world.stub.resetFaultsAndCounters()
        }
    }
}
