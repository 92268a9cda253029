import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing
import Varlink

/// `--owner USER|UID` and `watchlist ls --all-users` (issue 31): root acts on another user's
/// personal watchlists; a user name is read from the password database, an unknown one is a usage
/// error (64); the daemon decides who may, and its refusal says that only root may (77).
@Suite struct WatchlistOwnerCommandTests {
    typealias Harness = MoviesCommandLineTests.Harness

    static let alice = Owner.user(LocalUser(uid: 1001))
    static let nameless = Owner.user(LocalUser(uid: 1005))

    static func list(_ name: String, _ owner: Owner, movies: [Int] = [603]) -> Watchlist {
        Watchlist(name: name, owner: owner, movieIDs: movies)
    }

    @Test func ownerSendsTheEditsForThatUserByNameOrUid() throws {
        let harness = Harness()
        harness.client.watchlistResult = .success(WatchlistReply(watchlist: Self.list("films", Self.alice)))
        #expect(harness.run("watchlist", "add", "films", "heat", "--owner", "alice") == .success)
        #expect(harness.client.actingOwner == 1001)
        #expect(harness.client.addedEdits == [WatchlistEdit(name: "films", queries: ["heat"])])
        // Root edits alice's list: her list, not "personal" (the caller's own).
        #expect(harness.output.text.hasPrefix("films (alice's: 0 queries, 1 movie)"), "\(harness.output.text)")

        let byUID = Harness()
        #expect(byUID.run("watchlist", "delete", "films", "--owner=1005") == .success, "a uid needs no name")
        #expect(byUID.client.actingOwner == 1005)
        #expect(byUID.client.deletedNames == ["films"])
    }

    /// `rm` first looks at the list to say which entries it lacks: that user's list, even when
    /// the caller (here uid 1000) has one of the same name.
    @Test func removeLooksAtThatUsersList() throws {
        let harness = Harness()
        let mine = Self.list("films", .user(LocalUser(uid: 1000)), movies: [11])
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: [mine, Self.list("films", Self.alice)]))
        #expect(harness.run("watchlist", "rm", "films", "--movie", "603", "--owner", "alice") == .success)
        #expect(harness.client.watchlistsAllUsers == [true], "another user's lists are asked for as root's")
        #expect(harness.client.removedEdits == [WatchlistEdit(name: "films", movieIDs: [603])])
        #expect(harness.client.actingOwner == 1001)
        #expect(harness.run("watchlist", "rm", "films", "--movie", "11", "--owner", "alice") == .failure, "alice's list has no movie 11")
        #expect(harness.errors.text.contains("watchlist 'films' has no movie 11"), "\(harness.errors.text)")
    }

    /// Issue 45: root's plain add of a name that is only a system list's edits the system's (the
    /// daemon decides, as before), and one of a new name says, once for that list, that the list
    /// is root's own and how to make a system list.
    @Test func rootsPlainAddOfANewNameSaysTheListIsRootsOwn() throws {
        let harness = Harness()
        harness.uid = 0
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: [Self.list("shared", .system)]))
        harness.client.watchlistResult = .success(WatchlistReply(watchlist: Self.list("shared", .system)))
        #expect(harness.run("watchlist", "add", "shared", "heat") == .success)
        #expect(harness.errors.text.isEmpty, "the system's list, edited: \(harness.errors.text)")
        harness.client.watchlistResult = .success(WatchlistReply(watchlist: Self.list("noir", .user(.root))))
        #expect(harness.run("watchlist", "add", "noir", "heat") == .success)
        #expect(harness.errors.text == "movies: note: 'noir' is a new watchlist of root's own, which only root sees and refreshes; a system watchlist, shared with every user, is made with --system: movies watchlist add --system NAME …\n")
        // Once: adding to it again, or as anyone else, or with --system or --quiet, says nothing.
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: [Self.list("shared", .system), Self.list("noir", .user(.root))]))
        #expect(harness.run("watchlist", "add", "noir", "alien") == .success)
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: []))
        #expect(harness.run("--quiet", "watchlist", "add", "noir2", "heat") == .success)
        harness.uid = 1000
        harness.client.watchlistResult = .success(WatchlistReply(watchlist: Self.list("noir", .user(LocalUser(uid: 1000)))))
        #expect(harness.run("watchlist", "add", "noir", "heat") == .success)
        #expect(harness.errors.text.components(separatedBy: "note:").count == 2, "\(harness.errors.text)")
    }

    @Test func lsOwnerListsThatUsersListsOnly() throws {
        let harness = Harness()
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: [Self.list("shared", .system), Self.list("films", Self.alice), Self.list("noir", Self.nameless)]))
        #expect(harness.run("--json", "watchlist", "ls", "--owner", "alice") == .success)
        let object = try JSONValue.parse(Array(harness.output.text.utf8))
        #expect(object["watchlists"]?.arrayValue?.map { $0["name"]?.stringValue } == ["films"])
        #expect(object["watchlists"]?.arrayValue?.first?["owner"] == .int(1001))
        // As text, her list is labelled hers, not "personal" (issue 46).
        let text = Harness()
        text.client.watchlistsResult = harness.client.watchlistsResult
        #expect(text.run("watchlist", "ls", "--owner", "alice") == .success)
        #expect(text.output.text.hasPrefix("films (alice's: 0 queries, 1 movie)"), "\(text.output.text)")
        #expect(!text.output.text.contains("personal"))
        // Your own lists are among those you see anyway: no need to ask for everyone's.
        let own = Harness()
        own.client.watchlistsResult = harness.client.watchlistsResult
        #expect(own.run("watchlist", "ls", "--owner", "1000") == .success)
        #expect(own.client.watchlistsAllUsers == [false])
        #expect(own.output.text.contains("No watchlists."))
    }

    @Test func allUsersShowsEachListsOwnerByNameAndJSONItsUid() throws {
        let harness = Harness()
        let lists = [Self.list("shared", .system), Self.list("films", Self.alice), Self.list("noir", Self.nameless)]
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: lists))
        #expect(harness.run("watchlist", "ls", "--all-users") == .success)
        #expect(harness.client.watchlistsAllUsers == [true])
        let headings = harness.output.text.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        #expect(headings == ["shared (system: 0 queries, 1 movie)", "films (alice: 0 queries, 1 movie)", "noir (uid 1005: 0 queries, 1 movie)"])
        let json = Harness()
        json.client.watchlistsResult = harness.client.watchlistsResult
        #expect(json.run("watchlist", "ls", "--all-users", "--json") == .success)
        let object = try JSONValue.parse(Array(json.output.text.utf8))
        #expect(object["watchlists"]?.arrayValue?.map { $0["owner"] ?? .null } == [.null, .int(1001), .int(1005)], "the daemon's reply as it is")
    }

    /// `ls NAME --all-users`: every user's list of that name, each with its owner.
    @Test func allUsersWithANameShowsEveryListOfThatName() throws {
        let harness = Harness()
        let lists = [Self.list("films", .system), Self.list("films", Self.alice), Self.list("noir", Self.nameless)]
        harness.client.watchlistsResult = .success(WatchlistsReply(watchlists: lists))
        #expect(harness.run("watchlist", "ls", "films", "--all-users") == .success)
        #expect(harness.output.text.split(separator: "\n").filter { !$0.hasPrefix(" ") } == ["films (system: 0 queries, 1 movie)", "films (alice: 0 queries, 1 movie)"])
        #expect(harness.run("watchlist", "ls", "docs", "--all-users") == .failure)
        #expect(harness.errors.text.contains("there is no watchlist named 'docs'"))
    }

    @Test(arguments: [
        (["watchlist", "add", "films", "x", "--owner", "nosuch"], "there is no user 'nosuch'"),
        (["refresh", "--owner", "nosuch"], "there is no user 'nosuch'"),
        (["watchlist", "add", "films", "x", "--owner", "alice", "--system"], "choose only one of --system and --owner"),
        (["refresh", "--system", "--owner", "1001"], "choose only one of --system and --owner"),
        (["watchlist", "ls", "--all-users", "--system"], "choose only one of --system, --owner and --all-users"),
        (["watchlist", "ls", "--all-users", "--owner", "bob"], "choose only one of --system, --owner and --all-users"),
        (["watchlist", "delete", "films", "--all-users"], "--all-users only applies to 'watchlist ls'"),
    ])
    func badOwnersAreUsageErrors(arguments: [String], message: String) throws {
        let harness = Harness()
        #expect(harness.run(arguments) == .usage)
        #expect(harness.errors.text.contains(message), "\(harness.errors.text)")
        #expect(harness.errors.text.contains("See 'movies \(arguments[0]) --help'."))
        #expect(harness.client.addedEdits.isEmpty && harness.client.refreshedNames.isEmpty && harness.client.deletedNames.isEmpty)
        let json = Harness()
        #expect(json.run(arguments + ["--json"]) == .usage)
        let object = try JSONValue.parse(Array(json.output.text.utf8))
        #expect(object["error"]?.stringValue == "io.moviesd.cli.UsageError")
        #expect(object["exitCode"]?.intValue == 64)
    }

    /// The daemon refuses another user's lists to all but root with PermissionDenied: the message
    /// says only root may, not "run as a member of the admin group" (which would not help).
    @Test func theDaemonsRefusalSaysOnlyRootMay() throws {
        let refused = ClientError.permissionDenied("moviesd does not let this user add to a watchlist")
        let harness = Harness()
        harness.client.watchlistResult = .failure(refused)
        #expect(harness.run("watchlist", "add", "films", "heat", "--owner", "bob") == .noPermission)
        #expect(harness.errors.text == "movies: permission denied: only root may act on another user's watchlists (--owner, --all-users); run it as root (sudo)\n")

        let listing = Harness()
        listing.client.watchlistsResult = .failure(refused)
        #expect(listing.run("--json", "watchlist", "ls", "--all-users") == .noPermission)
        let object = try JSONValue.parse(Array(listing.output.text.utf8))
        #expect(object["error"]?.stringValue == "org.varlink.service.PermissionDenied")
        #expect(object["exitCode"]?.intValue == 77)

        let refresh = Harness()
        refresh.client.refreshScript = .init(replies: [], error: refused)
        #expect(refresh.run("refresh", "--owner", "bob") == .noPermission)
        #expect(refresh.errors.text.contains("only root may act on another user's watchlists"))
        // Without --owner, a refusal is the admin group's business, as before.
        let own = Harness()
        own.client.watchlistResult = .failure(refused)
        #expect(own.run("watchlist", "add", "films", "heat", "--system") == .noPermission)
        #expect(own.errors.text.contains("member of its admin group"))
    }

    @Test func refreshOwnerRefreshesThatUsersLists() {
        let harness = Harness()
        RefreshCommandTests.scripted(harness)
        #expect(harness.run("refresh", "films", "--owner", "alice") == .success)
        #expect(harness.client.actingOwner == 1001)
        #expect(harness.client.refreshedNames == ["films"])
    }
}
