import Foundation
import MoviesTestSupport
import Testing

/// The TMDB account's outbox end to end, with the real binaries: what a user types, against the
/// stub's account with its faults.
@Suite("The account, end to end", .serialized, .blocksThreads)
struct AccountEndToEndTests {
    @Test("watchlist add, rate, unrate while TMDB cannot list the account: once it can, sync --wait settles and the view is TMDB's")
    func aRatingDeliveredThenUndoneIsConfirmedOnceTheListsLoad() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        try sandbox.startStub(["--auto-approve"])
        try sandbox.startDaemon()
        var login = try sandbox.movies(["account", "--system", "login"])
        if !login.stdout.contains("Signed in") { login = try sandbox.movies(["account", "--system", "login"]) }
        #expect(login.status == 0 && login.stdout.contains("Signed in"), "\(login.stdout) \(login.stderr)")

        // TMDB takes writes but cannot list the account.
        try await sandbox.setFaults(#"{"listsOnly":true,"errorRate":1}"#)
        // Each edit delivered before the next (`--wait`: on a busy machine a write may pass the 1 s
        // after which an edit is answered "pending" without it).
        for edit in [["watchlist", "add", "550"], ["rate", "550", "7"], ["unrate", "550"]] {
            let result = try sandbox.movies(["account", "--system", "--json"] + edit + ["--wait", "--timeout", "30s"], timeout: 60)
            #expect(result.status == 0, "\(edit): \(result.stderr)")
            #expect(result.stdout.contains(#""onTmdb":true"#), "\(edit): \(result.stdout)")
        }
        try await sandbox.setFaults(#"{"listsOnly":false,"errorRate":0}"#)

        let started = Date()
        let sync = try sandbox.movies(["sync", "--system", "--wait", "--timeout", "30s"], timeout: 60)
        #expect(sync.status == 0, "\(sync.stdout) \(sync.stderr)")
        #expect(Date().timeIntervalSince(started) < 30)
        let pending = try sandbox.movies(["pending", "--system", "--json"])
        #expect(pending.status == 0 && !pending.stdout.contains(#""movieId""#), "nothing left in the outbox: \(pending.stdout)")

        let tmdb = try await sandbox.stubAccount()
        #expect(tmdb["watchlist"] as? [Int] == [])
        #expect((tmdb["rated"] as? [String: Any])?.isEmpty == true)
        let show = try sandbox.movies(["account", "--system", "show", "--json"])
        #expect(show.status == 0 && show.stdout.contains(#""watchlist""#), "\(show.stdout) \(show.stderr)")
        #expect(!show.stdout.contains("550"), "the view is TMDB's lists: \(show.stdout)")
    }
}
