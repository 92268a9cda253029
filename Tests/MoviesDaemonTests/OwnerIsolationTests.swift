import Foundation
import Glibc
import MoviesDaemon
import MoviesDomain
import MoviesTestSupport
import SystemSupport
import Testing
@testable import Varlink

/// Issues 31 and 41: root, alice and bob on each other's data, over the daemon's real parts
/// (composition root, state database, session files, the stub over HTTP). Nothing private of one
/// uid is returned to, changed by or deleted by another: listings, details, pending edits, status
/// and errors (an error never says that another user's list exists: it is the very error of a
/// name nobody uses). `everyMethodGeneratedFromTheInterface` calls every method the interface
/// file declares, with parameters made from its types, so a method added there is covered as is.
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

    @Test("alice's lists, account, edits and history are hers: bob sees, changes and learns nothing of them; root reaches them by naming her")
    func everyMethodAsThreeUsers() async throws {
        try await AccountIntegrationTests.withWorld { world in
            func call(_ method: String, _ parameters: [String: JSONValue] = [:], as uid: UInt32) async -> Result<JSONValue, VarlinkError> {
                await world.call(method, parameters, uid: uid)
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

        }
    }

    // MARK: - Generated from the interface file

    /// Fields whose values move with the clock alone (ages, times, durations), replaced before
    /// comparing; and the request token in `approvalUrl`, which TMDB (the stub) draws at random.
    static let timeFields: Set<String> = [
        "ageSeconds", "fetchedAt", "uptimeSeconds", "lastRefresh", "since", "retryAt", "nextRunAt", "finishedAt",
        "durationSeconds", "lastRunAt", "lastSuccessAt", "pulledAt", "nextAttemptAt", "createdAt", "expiresAt",
    ]

    /// `value` with the time fields (`timeFields`) and TMDB's random request token replaced.
    static func normalized(_ value: JSONValue, key: String? = nil) -> JSONValue {
        switch value {
        case .object(let members):
            var result: [String: JSONValue] = [:]
            for (name, member) in members {
                if timeFields.contains(name), !member.isNull {
                    result[name] = .string("<time>")
                } else if name == "approvalUrl", let url = member.stringValue {
                    result[name] = .string(String(url.prefix { $0 != "?" }.split(separator: "/").dropLast().joined(separator: "/")) + "/<token>")
                } else {
                    result[name] = normalized(member, key: name)
                }
            }
            return .object(result)
        case .array(let items): return .array(items.map { normalized($0) })
        default: return value
        }
    }

    /// The replies of one call as compared: each normalised, serialized; an error as its name and
    /// parameters. A refresh fetches up to 8 queries at once, so the order its steps report in
    /// follows the scheduler: its intermediate replies are compared as a set, without their
    /// running counts, and its final reply without the step that happened to end last.
    static func compared(_ replies: [Result<JSONValue, VarlinkError>]) -> String {
        func text(_ reply: Result<JSONValue, VarlinkError>, final: Bool) -> String {
            switch reply {
            case .success(var value):
                if case .object(var progress)? = value["progress"], case .object(var members) = value {
                    if final { progress["step"] = .string("<the last step>") } else { ["done", "failed", "skipped", "current"].forEach { progress[$0] = nil } }
                    members["progress"] = .object(progress)
                    value = .object(members)
                }
                return String(decoding: normalized(value).serialized(), as: UTF8.self)
            case .failure(let error):
                return error.name + String(decoding: normalized(.object(error.parameters)).serialized(), as: UTF8.self)
            }
        }
        return (replies.dropLast().map { text($0, final: false) }.sorted() + replies.suffix(1).map { text($0, final: true) }).joined(separator: "\n")
    }

    /// Errors that say the generator did not make a call the method takes, or that the daemon
    /// does not serve the method: a method whose every call ends so is not tested, and fails.
    static let notCalled: Set<String> = [
        "org.varlink.service.InvalidParameter", "org.varlink.service.MethodNotFound", "org.varlink.service.MethodNotImplemented",
    ]

    /// Values the generator draws from: the system's list name and alice's (`films` is both when
    /// she makes her own), queries the stub answers, movie ids, alice's, bob's and root's uids.
    static let generator = InterfaceCallGenerator(
        interface: .movies,
        strings: ["films", "secret", "alien", "matrix", "ci", "", "en", "GB", "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg"],
        ints: [0, 1, 2, 13, 550, 603, Int64(alice), Int64(bob), 2000, -1],
        floats: [0, 0.5, 8])

    /// The seeds of `everyMethodGeneratedFromTheInterface`: `MOVIESD_ISOLATION_SEEDS` (numbers
    /// separated by commas) to try others, or reproduce a failure, which names its seed.
    static let seeds: [UInt64] = ProcessInfo.processInfo.environment["MOVIESD_ISOLATION_SEEDS"]
        .map { $0.split(separator: ",").compactMap { UInt64($0) } } ?? [41, 4141, 414141]

    /// Whether alice's account shows an edit of hers: pending, or on one of its lists.
    static func hasAccountEdits(_ daemon: IsolationDaemon) async -> Bool {
        let pending = (try? await daemon.call("Pending", uid: alice).last?.get())?["entries"]?.arrayValue ?? []
        let account = try? await daemon.call("Account", uid: alice).last?.get()
        let items = ["watchlist", "favorites", "rated"].flatMap { account?[$0]?.arrayValue ?? [] }
        return !pending.isEmpty || !items.isEmpty
    }

    /// Issue 41: for every method of the interface file, with random data of alice's (whatever
    /// her calls of every method made: lists, history, account edits, refreshes), bob's answers
    /// are those he gets from a daemon where alice never existed: the same shared cache (a copy of
    /// the first daemon's cache database, taken once alice is done), without anything of hers.
    /// Only time fields, TMDB's random request token and the shared pin count are normalised
    /// (`normalized`). A method added to the interface is called without editing this test; one
    /// whose parameters cannot be made from its types, or that no generated call reaches, fails it.
    @Test(.timeLimit(.minutes(5)), arguments: seeds)
    func everyMethodGeneratedFromTheInterface(seed: UInt64) async throws {
        let withAlice = try IsolationDaemon()
        do {
            try await Self.compareBobsAnswers(seed: seed, withAlice: withAlice)
        } catch {
            await withAlice.close()
            throw error
        }
        await withAlice.close()
    }

    /// The body of `everyMethodGeneratedFromTheInterface`, over `withAlice`, a fresh daemon.
    static func compareBobsAnswers(seed: UInt64, withAlice: IsolationDaemon) async throws {
        var random = SeededRandomGenerator(seed: seed)
        let methods = InterfaceModel.movies.methods.map(\.name)
        #expect(methods.count == Set(methods).count && methods.count >= 20, "the interface's methods: \(methods)")
        let setup: [String: JSONValue] = ["name": .string("films"), "movieIds": .array([.int(603)]), "system": .bool(true)]
        _ = try await withAlice.call("AddToWatchlist", setup, uid: Self.root).last?.get()

        // Alice calls every method at random (the stub approving her sign-ins between rounds),
        // then surely leaves lists (one of the system's name), history, a signed-in account with
        // an edit, and a refresh of her lists behind: her random calls may have undone them.
        for _ in 0..<3 {
            for method in methods.shuffled(using: &random) {
                for _ in 0..<3 {
                    let parameters = try Self.generator.parameters(of: method, using: &random)
                    _ = await withAlice.call(method, parameters, uid: Self.alice, more: Bool.random(using: &random))
                }
            }
            _ = withAlice.stub.account.approveAllTokens()
        }
        let hers: [(String, [String: JSONValue])] = [
            ("AddToWatchlist", ["name": .string("secret"), "queries": .array([.string("alien")]), "movieIds": .array([.int(603), .int(550)]), "pages": .int(1)]),
            ("AddToWatchlist", ["name": .string("films"), "movieIds": .array([.int(13)])]), ("SaveRecentQuery", ["query": .string("alien")]),
            ("Refresh", [:]), ("AccountLogin", [:]),
        ]
        for (method, parameters) in hers { _ = await withAlice.call(method, parameters, uid: Self.alice) }
        _ = withAlice.stub.account.approveAllTokens()
        _ = await withAlice.call("AccountLogin", uid: Self.alice)
        _ = await withAlice.call("AccountEdit", ["list": .string("favorite"), "movieId": .int(550), "on": .bool(true)], uid: Self.alice)
        let status = try await withAlice.call("Status", uid: Self.alice).last?.get()
        let lists = try await withAlice.call("Watchlists", uid: Self.alice).last?.get()["watchlists"]?.arrayValue ?? []
        let recent = try await withAlice.call("RecentQueries", uid: Self.alice).last?.get()["queries"]?.arrayValue ?? []
        #expect(lists.filter { $0["owner"] == .int(Int64(Self.alice)) }.count >= 2 && !recent.isEmpty && status?["refresh"]?["last"] != nil, "seed \(seed)")
        let edits = await Self.hasAccountEdits(withAlice)
        #expect(status?["account"]?["accountId"] != nil && edits, "seed \(seed): \(String(describing: status))")

        // The same shared cache, with and without alice: her daemon restarted (nothing in memory),
        // and one over a copy of its cache database, the system's list made as in hers.
        try await withAlice.restart()
        let without = try IsolationDaemon(copyingCacheOf: withAlice.directory)
        _ = await without.call("AddToWatchlist", setup, uid: Self.root)

        var reached = Set<String>()
        // Bob calls every method 8 times, in random order, on both daemons.
        for (index, method) in methods.flatMap({ Array(repeating: $0, count: 8) }).shuffled(using: &random).enumerated() {
            let parameters = try Self.generator.parameters(of: method, using: &random)
            let more = Bool.random(using: &random)
            let expected = await without.call(method, parameters, uid: Self.bob, more: more)
            let answered = await withAlice.call(method, parameters, uid: Self.bob, more: more)
            if case .failure(let error)? = expected.last, Self.notCalled.contains(error.name) {} else { reached.insert(method) }
            let (want, got) = (Self.compared(expected), Self.compared(answered))
            #expect(got == want, "seed \(seed), bob's call \(index): \(method)\(more ? " more" : "") \(String(decoding: JSONValue.object(parameters).serialized(), as: UTF8.self))")
            if got != want { break }
            if index == methods.count * 8 - 1 {
                #expect(reached == Set(methods), "seed \(seed): no generated call reached \(Set(methods).subtracting(reached).sorted())")
            }
        }
        await without.close()
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
            // Which quota, and how to raise it.
            #expect(error.parameters["reason"]?.stringValue?.hasSuffix("your share ([Users] PendingEditsPerUser=2); sync them first (movies sync), or have an administrator raise it in /etc/moviesd/moviesd.conf.d/*.conf") == true, "\(error.parameters)")
            try world.stub.resetFaultsAndCounters()
        }
    }
}
