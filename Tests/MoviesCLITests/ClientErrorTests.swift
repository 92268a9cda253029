@testable import MoviesCLI
import MoviesDomain
import Testing

@Suite struct ClientErrorTests {
    @Test(arguments: [
        (ClientError.daemonUnreachable(socketPath: "/s", reason: "no socket there"), ExitCode.unavailable),
        (.permissionDenied("no"), .noPermission),
        (.remoteUnavailable("down"), .temporaryFailure),
        (.notCached("offline"), .temporaryFailure),
        (.notFound(id: 1), .failure),
        (.remoteRejected("bad key"), .failure),
        (.invalidArgument("page"), .usage),
        (.other("boom"), .failure),
    ])
    func mapsToSysexits(error: ClientError, code: ExitCode) {
        #expect(error.exitCode == code)
    }

    @Test func exitCodesAreTheSysexitsValues() {
        #expect([ExitCode.success, .failure, .usage, .unavailable, .temporaryFailure, .noPermission].map(\.rawValue) == [0, 1, 64, 69, 75, 77])
    }

    @Test func daemonUnreachableNamesTheSocketAndHowToStartIt() {
        let user = ClientError.daemonUnreachable(socketPath: "/run/user/1000/moviesd/io.moviesd.Movies", reason: "no socket there").message
        #expect(user.contains("/run/user/1000/moviesd/io.moviesd.Movies"))
        // The user unit's socket: the user service starts it (the unit's name, not 'moviesd').
        #expect(user.contains("'systemctl --user enable --now moviesd.socket'"))
        #expect(!user.contains("sudo"))
        #expect(!user.contains("\n"))
        let system = ClientError.daemonUnreachable(socketPath: "/run/moviesd/io.moviesd.Movies", reason: "refused").message
        #expect(system.contains("sudo systemctl start moviesd.socket"))
        #expect(system.contains("systemctl --user enable --now moviesd.socket"), "neither socket exists: either daemon will do")
        let other = ClientError.daemonUnreachable(socketPath: "/tmp/m.sock", reason: "no socket there").message
        #expect(other.contains("'moviesd --socket /tmp/m.sock' in another terminal"))
        #expect(!other.contains("systemctl"))
    }

    /// Nothing cached under the offline policy: said once; nothing about the network being down
    /// (it was never asked), nor `--local` (`show` has none); movies.conf only when the policy came from it.
    @Test func notCachedSaysItOnceAndWhereAnOfflinePolicyComesFrom() {
        let said = ClientError.notCached("nothing cached for this request and the policy forbids the network").asked(with: .cacheOnly, from: .flag).message
        #expect(said == "nothing is cached for this request, and --offline does not ask TMDB; run it without --offline to ask TMDB")
        #expect(ClientError.notCached("offline").message.hasPrefix("nothing is cached for this request (offline), and the policy"))
        let configured = ClientError.notCached("nothing cached for this request").asked(with: .cacheOnly, from: .configuration)
        #expect(configured.message == "nothing is cached for this request, and the offline policy (Policy=offline in movies.conf's [Search]) does not ask TMDB; run it with --cache-first or --fresh to ask TMDB")
        #expect(configured.errorName == "io.moviesd.Movies.NotCached" && configured.exitCode == .temporaryFailure)
        for message in [said, configured.message] {
            #expect(!message.contains("network is back") && !message.contains("--local"), "\(message)")
        }
    }

    /// The advice follows the fetch plan, policy by policy, whatever policies there are: a miss
    /// names the policy when it does not ask TMDB, a failure when it asks but does not fall back
    /// to the cache; the flags it suggests are the policy options' own.
    @Test(arguments: FetchPolicy.allCases, [AskedPolicy.Origin.flag, .configuration])
    func theAdviceFollowsTheFetchPlan(policy: FetchPolicy, origin: AskedPolicy.Origin) {
        let missed = ClientError.notCached("nothing cached").asked(with: policy, from: origin)
        #expect((missed != .notCached("nothing cached")) == !policy.asksTMDB)
        let failed = ClientError.remoteUnavailable("down").asked(with: policy, from: origin)
        #expect((failed != .remoteUnavailable("down")) == (policy.asksTMDB && !policy.fallsBackToCache))
        for advised in [missed, failed] where advised != .notCached("nothing cached") && advised != .remoteUnavailable("down") {
            let flags = advised.message.split(separator: " ").filter { $0.hasPrefix("--") }.map { String($0.prefix { $0 != ")" && $0 != ";" && $0 != "," }) }
            let known = Set((PolicyOptions.named + PolicyOptions.searchOnly).map { "--" + $0.name })
            #expect(!flags.isEmpty && flags.allSatisfy(known.contains), "\(advised.message)")
        }
    }
}
