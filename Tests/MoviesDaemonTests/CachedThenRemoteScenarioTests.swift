import Foundation
import Glibc
@testable import MoviesDaemon
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing
@testable import Varlink

/// Every `Search` scenario (each policy × what the cache holds × TMDB answering or failing ×
/// streaming or not), run twice: in-process through the service's task path, and over a real
/// socket through the server's event loop (whose memory stage answers the plan's immediate part
/// when memory holds the entry). Both must give the same replies, and those the call's
/// `FetchPlan` promises. The rule itself is `FetchPlanTests`' table.
@Suite(.blocksThreads) struct CachedThenRemoteScenarioTests {
    enum Cached: String, CaseIterable, Sendable { case nothing, fresh, stale, negative }
    enum Remote: String, CaseIterable, Sendable { case answers, fails }

    struct Scenario: Sendable, CustomTestStringConvertible {
        var policy: FetchPolicy
        var cached: Cached
        var remote: Remote
        var more: Bool
        var testDescription: String { "\(policy.rawValue), \(cached) cached, TMDB \(remote)\(more ? ", more" : "")" }
    }

    static let scenarios: [Scenario] = FetchPolicy.allCases.flatMap { policy in
        Cached.allCases.flatMap { cached in
            Remote.allCases.flatMap { remote in [false, true].map { Scenario(policy: policy, cached: cached, remote: remote, more: $0) } }
        }
    }

    /// The cache and TMDB of `scenario`, then one `cache_only` call that reads the entry into
    /// memory (as any earlier call would), on both sides alike.
    static func prepare(_ harness: ServiceHarness, _ scenario: Scenario) async throws {
        switch scenario.cached {
        case .nothing: break
        case .fresh: try await harness.seedSearch("matrix", titles: ["Cached Matrix"], fresh: true)
        case .stale: try await harness.seedSearch("matrix", titles: ["Cached Matrix"], fresh: false)
        case .negative:
            let date = harness.clock.date
            await harness.storage.seed(StoredResponse(
                key: CacheKey.search(try #require(MovieQuery("matrix")), page: 1, language: nil), resource: .search, body: Data(),
                httpStatus: 404, fetchedAt: date, expiresAt: date.addingTimeInterval(600)))
        }
        switch scenario.remote {
        case .answers: await harness.scriptSearch("matrix", titles: ["TMDB Matrix"])
        case .fails: await harness.scriptSearchFailure("matrix", message: "TMDB refused the connection")
        }
        _ = await harness.call("Search", ["query": .string("matrix"), "policy": .string("cache_only")])
    }

    static func parameters(_ scenario: Scenario) -> [String: JSONValue] {
        ["query": .string("matrix"), "policy": .string(scenario.policy.rawValue)]
    }

    /// A reply in a line: its origin and first title, whether TMDB failed, or the error's name.
    static func line(_ parameters: JSONValue?, error: String?) -> String {
        if let error { return "error \(error)" }
        let freshness = parameters?["freshness"]
        let origin = freshness?["origin"]?.stringValue ?? "?"
        let title = parameters?["page"]?["movies"]?.arrayValue?.first?["title"]?.stringValue ?? "-"
        return "\(origin) \(title)\(freshness?["remoteError"]?.stringValue == nil ? "" : " remoteError")"
    }

    /// What the plan of `scenario` promises, a line per reply.
    static func promised(_ scenario: Scenario, at now: Date) -> [String] {
        let entry: FetchPlan.Entry = switch scenario.cached {
        case .nothing: .missing
        case .fresh: .value(stale: false, servable: true)
        case .stale: .value(stale: true, servable: true)
        case .negative: .negative(stale: false)
        }
        let plan = FetchPlan.make(policy: scenario.policy, streams: scenario.more, entry: entry)
        if plan.notFound { return ["error io.moviesd.Movies.NotFound"] }
        var lines: [String] = []
        if plan.immediate == .final { return ["cache Cached Matrix"] }
        if plan.immediate == .first { lines.append("cache Cached Matrix") }
        if plan.fetches, scenario.remote == .answers { return lines + ["network TMDB Matrix"] }
        if plan.fetches, plan.fallsBackToCache { return lines + ["cache Cached Matrix remoteError"] }
        return lines + [plan.fetches ? "error io.moviesd.Movies.RemoteUnavailable" : "error io.moviesd.Movies.NotCached"]
    }

    @Test(arguments: scenarios)
    func inProcessAndOverASocketAnswerAlikeAndAsThePlanSays(_ scenario: Scenario) async throws {
        let inProcess = ServiceHarness()
        try await Self.prepare(inProcess, scenario)
        let outcome = await inProcess.call("Search", Self.parameters(scenario), more: scenario.more)
        let direct = outcome.intermediate.map { Self.line($0, error: nil) } + [Self.line(outcome.reply, error: outcome.error?.name)]

        let served = ServiceHarness(daemonUID: getuid())
        try await Self.prepare(served, scenario)
        let parameters = Self.parameters(scenario)
        let more = scenario.more
        let replies = try await served.overARealSocket { client in
            var replies: [VarlinkReply] = []
            try client.call("io.moviesd.Movies.Search", parameters: parameters, more: more) { replies.append($0) }
            return replies
        }
        let socket = replies.map { Self.line($0.parameters, error: $0.error) }

        #expect(direct == socket, "in-process \(direct), over the socket \(socket)")
        #expect(direct == Self.promised(scenario, at: inProcess.clock.date))
        #expect(await inProcess.remote.fetchCount == (await served.remote.fetchCount), "TMDB asked alike")
    }
}
