import Foundation
import Glibc
@testable import MoviesDaemon
import MoviesDomain
import MoviesTestSupport
import Testing
import TMDBStub
@testable import Varlink

/// The daemon's `io.systemd.Metrics` over its real parts (the server and its event loop, the
/// service, the SQLite cache and its memory, TMDB's client) against the stub over HTTP: the
/// families' values after scripted calls (a miss fetched from TMDB, a memory hit, a 429, an
/// offline fallback), and what the families may not say.
@Suite(.blocksThreads, .timeLimit(.minutes(2))) struct DaemonMetricsTests {
    /// A daemon on a socket of its own, TMDB being the stub.
    final class Daemon: Sendable {
        let stub = TMDBStubServer(configuration: TMDBStubConfiguration())
        let directory: ScratchDirectory
        let socket: String
        let container: AppDIContainer
        let server: VarlinkServer
        private let task: Task<Void, any Error>

        init() throws {
            let ports = try stub.start()
            directory = try ScratchDirectory()
            socket = directory.file("io.moviesd.Movies")
            var configuration = DaemonConfiguration.defaults
            configuration.remote.baseURL = "http://127.0.0.1:\(ports.port)/3/"
            configuration.remote.requestsPerSecond = 1000
            let paths = DaemonPaths(socketPath: socket, databasePath: directory.file("cache.sqlite3"))
            container = try AppDIContainer(configuration: configuration, paths: paths, credential: .bearer("stub-token"))
            let service = container.makeMoviesService(startedAt: Date(), daemonUID: getuid(), authorizedGID: nil)
            server = container.makeServer(service: service)
            let listener = try VarlinkListener.bind(path: socket)
            task = Task { [server] in try await server.run(on: listener) }
        }

        /// Calls `method` of `io.moviesd.Movies` and returns the final reply (an error reply too).
        func call(_ method: String, _ parameters: [String: JSONValue] = [:], more: Bool = false) async throws -> VarlinkReply {
            let socket = socket
            return try await ServiceHarness.offThread {
                let client = try VarlinkClient(unixPath: socket, timeoutSeconds: ProcessDeadline.replySeconds)
                var last: VarlinkReply?
                try client.call("io.moviesd.Movies.\(method)", parameters: parameters, more: more) { last = $0 }
                guard let last else { throw VarlinkClientError(code: .closed, path: socket) }
                return last
            }
        }

        /// `io.systemd.Metrics.<method>`'s replies, each with whether it continues.
        func metricsReplies(_ method: String) async throws -> [VarlinkReply] {
            let socket = socket
            return try await ServiceHarness.offThread {
                let client = try VarlinkClient(unixPath: socket, timeoutSeconds: ProcessDeadline.replySeconds)
                var replies: [VarlinkReply] = []
                try client.call("io.systemd.Metrics.\(method)", more: true) { replies.append($0) }
                return replies
            }
        }

        /// The values listed now, by family name, each with its fields.
        func list() async throws -> [String: [(fields: [String: String], value: JSONValue)]] {
            var values: [String: [(fields: [String: String], value: JSONValue)]] = [:]
            for reply in try await metricsReplies("List") {
                let name = try #require(reply.parameters["name"]?.stringValue)
                let fields = (reply.parameters["fields"]?.objectValue ?? [:]).compactMapValues(\.stringValue)
                values[name, default: []].append((fields, try #require(reply.parameters["value"])))
            }
            return values
        }

        func stop() async {
            server.shutdown(gracePeriodSeconds: 0)
            _ = await task.result
            await container.close()
            stub.stop()
            directory.remove()
        }
    }

    /// The value of `family` with exactly `fields`, or `nil`.
    static func value(_ values: [String: [(fields: [String: String], value: JSONValue)]], _ family: String, _ fields: [String: String] = [:]) -> JSONValue? {
        values["io.moviesd." + family]?.first { $0.fields == fields }?.value
    }

    @Test func familiesCountAMissAMemoryHitA429AndAnOfflineFallback() async throws {
        let daemon = try Daemon()
        // A miss: nothing cached, TMDB's answer.
        let fetched = try await daemon.call("Search", ["query": .string("matrix"), "policy": .string("network_only")])
        #expect(fetched.parameters["freshness"]?["origin"] == .string("network"))
        // A hit: the event loop answers from memory.
        let remembered = try await daemon.call("Search", ["query": .string("matrix"), "policy": .string("cache_first")])
        #expect(remembered.parameters["freshness"]?["origin"] == .string("cache"))
        // TMDB rate limits: a query never cached is answered by the local index of cached movies.
        var faults = daemon.stub.faults
        faults.rateLimit = StubFaults.RateLimit(share: 1, retryAfter: 30)
        try daemon.stub.updateFaults(faults)
        let limited = try await daemon.call("Search", ["query": .string("star"), "policy": .string("network_only")])
        #expect(limited.parameters["freshness"]?["origin"] == .string("local_index"))
        // A movie never cached fails, with TMDB's Retry-After.
        let movie = try await daemon.call("Movie", ["id": .int(550), "policy": .string("network_only")])
        #expect(movie.error == "io.moviesd.Movies.RemoteUnavailable")
        // Meanwhile a cached query answers from the cache, saying why: an offline fallback.
        let fallback = try await daemon.call("Search", ["query": .string("matrix")])
        #expect(fallback.parameters["freshness"]?["remoteError"]?.stringValue != nil)

        let values = try await daemon.list()
        let search = "io.moviesd.Movies.Search"
        #expect(Self.value(values, "calls_total", ["method": search, "outcome": "ok"]) == .int(4))
        #expect(Self.value(values, "calls_total", ["method": "io.moviesd.Movies.Movie", "outcome": "io.moviesd.Movies.RemoteUnavailable"]) == .int(1))
        #expect(Self.value(values, "answers_total", ["method": search, "origin": "local_index"]) == .int(1))
        #expect(Self.value(values, "answers_total", ["method": search, "origin": "network"]) == .int(1))
        #expect(Self.value(values, "answers_total", ["method": search, "origin": "memory"]) == .int(1))
        #expect(Self.value(values, "answers_total", ["method": search, "origin": "offline_fallback"]) == .int(1))
        #expect(Self.value(values, "answers_total", ["method": search, "origin": "cache"]) == nil)
        #expect(Self.value(values, "tmdb_requests_total", ["endpoint": "search", "status": "2xx"]) == .int(1))
        #expect(Self.value(values, "tmdb_requests_total", ["endpoint": "search", "status": "4xx"]) == .int(1))
        #expect(Self.value(values, "tmdb_rate_limited_total") == .int(1))
        #expect(Self.value(values, "tmdb_request_duration_seconds_count", ["endpoint": "search"]) == .int(2))
        #expect(Self.value(values, "remote_state") == .string("rate_limited"))
        #expect(Self.value(values, "cache_entries") == .int(1))
        #expect(Self.value(values, "memory_entries") == .int(1))
        let hits = try #require(Self.value(values, "memory_lookups_total", ["result": "hit"])?.intValue)
        #expect(hits >= 1)
        // Every Search call is in the latency histograms, the first reply never after the end.
        #expect(Self.value(values, "call_duration_seconds_count", ["method": search]) == .int(4))
        #expect(Self.value(values, "call_first_reply_seconds_bucket", ["method": search, "le": "+Inf"]) == .int(4))
        #expect(Self.value(values, "connections_accepted_total")?.intValue ?? 0 >= 5)
        #expect(Self.value(values, "version") == .string(MoviesdRelease.version))
        #expect(Self.value(values, "storage_faults_total", ["database": "cache", "fault": "full"]) == .int(0))
        await daemon.stop()
    }

    /// Every family of the table says something after a little use (a family whose values are
    /// never read would list nothing): all but the histograms of methods never called.
    @Test func everyFamilyHasAValueAfterALittleUse() async throws {
        let daemon = try Daemon()
        _ = try await daemon.call("Search", ["query": .string("matrix")], more: true)
        _ = try await daemon.call("AddToWatchlist", ["name": .string("films"), "queries": .array([.string("star")]), "system": .bool(true)])
        let refreshed = try await daemon.call("Refresh", [:], more: true)
        #expect(refreshed.error == nil, "\(refreshed)")
        let values = try await daemon.list()
        for family in DaemonMetrics.table.map(\.family.name) {
            #expect(values[family]?.isEmpty == false, "\(family) lists no value")
        }
        #expect(Self.value(values, "refresh_runs_total", ["outcome": "completed"]) == .int(1))
        #expect(Self.value(values, "refresh_entries_total", ["result": "fetched"])?.intValue ?? 0 >= 1)
        #expect(Self.value(values, "refresh_duration_seconds_count") == .int(1))
        #expect(Self.value(values, "outbox_entries", ["state": "pending"]) == .int(0))
        #expect(Self.value(values, "storage_state", ["database": "cache"]) == .string("ok"))
        #expect(Self.value(values, "connections_refused_total", ["reason": "per_user"]) == .int(0))
        let started = try #require(Self.value(values, "start_time_seconds")?.intValue)
        #expect(abs(Double(started) - Date().timeIntervalSince1970) < 600)
        #expect(Self.value(values, "build") == .string(DaemonMetrics.build))
        await daemon.stop()
    }

    /// What `systemd-report` takes: names under `io.moviesd.` that are valid Varlink field
    /// names, each listed family described, histograms whose buckets never decrease and end at
    /// their count.
    @Test func everyValueBelongsToADescribedValidFamilyAndHistogramsAddUp() async throws {
        let daemon = try Daemon()
        _ = try await daemon.call("Search", ["query": .string("matrix")], more: true)
        _ = try await daemon.call("Status")
        let described = try await daemon.metricsReplies("Describe")
        #expect(described.dropLast().allSatisfy { $0.continues } && described.last?.continues == false)
        let families = Dictionary(uniqueKeysWithValues: described.compactMap { reply in
            reply.parameters["name"]?.stringValue.map { ($0, reply.parameters["type"]?.stringValue ?? "") }
        })
        #expect(families.count == DaemonMetrics.table.count)
        #expect(Array(families.keys).sorted() == described.compactMap { $0.parameters["name"]?.stringValue }, "Describe lists them in name order")
        for (name, type) in families {
            #expect(MetricFamily.isValidName(name, under: "io.moviesd"), "\(name)")
            #expect(["counter", "gauge", "string"].contains(type), "\(name): \(type)")
            if name.hasSuffix("_bucket") || name.hasSuffix("_sum") || name.hasSuffix("_count") || name.hasSuffix("_total") {
                #expect(type == "counter", "\(name) is a counter as Prometheus spells it")
            }
        }
        let values = try await daemon.list()
        for name in values.keys { #expect(families[name] != nil, "\(name) is listed but not described") }
        for (name, buckets) in values where name.hasSuffix("_bucket") {
            let base = String(name.dropLast("_bucket".count))
            for group in Dictionary(grouping: buckets, by: { $0.fields.filter { $0.key != "le" } }) {
                let counts = group.value.compactMap(\.value.intValue)
                #expect(counts == counts.sorted(), "\(name) \(group.key): buckets are cumulative")
                #expect(group.value.last?.fields["le"] == "+Inf")
                #expect(counts.count == 18)
                #expect(values[base + "_count"]?.first { $0.fields == group.key }?.value.intValue == counts.last)
                #expect(values[base + "_sum"]?.first { $0.fields == group.key } != nil)
            }
        }
        await daemon.stop()
    }

    /// Nothing names a user, a list or a query: a caller who is not root (here: anyone, the
    /// families are the same for all) learns counts, never whose.
    @Test func noValueNamesAUserAListOrAQuery() async throws {
        let daemon = try Daemon()
        let alice = ServiceHarness.stranger
        let service = daemon.container.makeMoviesService(startedAt: Date(), daemonUID: getuid(), authorizedGID: nil)
        let writer = VarlinkReplyWriter(isStreaming: false) { _ in }
        _ = try await service.handle(VarlinkCall(
            method: "io.moviesd.Movies.AddToWatchlist", parameters: ["name": .string("alices-secret-list"), "queries": .array([.string("zanzibar heist")])],
            peer: alice), replies: writer)
        _ = try await daemon.call("Search", ["query": .string("zanzibar heist"), "policy": .string("network_only")])
        _ = try await daemon.call("Search", ["query": .string("matrix")])
        let text = try await daemon.metricsReplies("List").map { String(decoding: $0.parameters.serialized(), as: UTF8.self) }.joined(separator: "\n")
        #expect(!text.contains("alices-secret-list"))
        #expect(!text.lowercased().contains("zanzibar"))
        #expect(!text.contains("matrix"))
        #expect(!text.contains(String(alice.uid)))
        #expect(!text.contains("uid"))
        #expect(!text.contains("stub-token"))
        await daemon.stop()
    }
}
