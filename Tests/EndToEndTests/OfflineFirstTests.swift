import Foundation
import MoviesTestSupport
import Testing

/// The product's promise, end to end with the real binaries: answers from the cache at once when
/// TMDB is gone, never corrupting or losing what was cached (issue 5).
@Suite("Offline-first, end to end", .serialized, .blocksThreads)
struct OfflineFirstTests {
    @Test("cold search hits the network; a repeat streams the cached page, then the fresh one")
    func coldThenCachedThenFresh() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }

        let cold = try sandbox.movies(["search", "matrix", "--json"])
        #expect(cold.status == 0, "\(cold.stderr)")
        let coldLines = JSONLines.parse(cold.stdout)
        #expect(coldLines.map(JSONLines.origin) == ["network"])
        #expect(try await sandbox.requestCount("/3/search/movie") == 1)

        // --stream shows every update: the cached page, then TMDB's.
        let warm = try sandbox.movies(["search", "matrix", "--stream"])
        #expect(warm.status == 0, "\(warm.stderr)")
        let warmLines = JSONLines.parse(warm.stdout)
        #expect(warmLines.count == 2)
        #expect(warmLines.first.flatMap(JSONLines.origin) == "cache")
        #expect(warmLines.map { $0["update"] as? String } == ["cached", "final"])
        #expect(["network", "revalidated"].contains(warmLines.last.flatMap(JSONLines.origin) ?? ""))
        // TMDB's order survives the cache.
        #expect(warmLines.first.map(JSONLines.movieIDs) == coldLines.first.map(JSONLines.movieIDs))
    }

    @Test("with the remote down, a cached query answers from the cache at once, marked stale")
    func remoteDownAnswersFromCache() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        #expect(try sandbox.movies(["search", "star", "--json"]).status == 0)
        // Age the entry, then lose the network.
        #expect(try sandbox.movies(["cache", "invalidate", "--all"]).status == 0)
        try await sandbox.setFaults(#"{"down": true}"#)

        for _ in 0..<3 {
            let started = Date()
            let offline = try sandbox.movies(["search", "star", "--json", "--cache-first"])
            let elapsed = Date().timeIntervalSince(started)
            #expect(offline.status == 0, "\(offline.stderr)")
            let lines = JSONLines.parse(offline.stdout)
            let freshness = JSONLines.lastReply(lines)?["freshness"] as? [String: Any]
            #expect(freshness?["origin"] as? String == "cache")
            // One answer: the cached page with remoteError, no separate error object.
            #expect(lines.count == 1 && JSONLines.finalError(lines) == nil, "\(offline.stdout)")
            #expect(freshness?["stale"] as? Bool == true)
            #expect((freshness?["remoteError"] as? String)?.isEmpty == false)
            #expect(elapsed < 1.0, "offline answer took \(elapsed) s")
        }
        // The default policy too (its cached page goes out first): the call ends with that page,
        // never with the local index's answer, since the query has a cached page.
        let offline = try sandbox.movies(["search", "star", "--json"])
        #expect(offline.status == 0, "\(offline.stderr)")
        let origins = JSONLines.parse(offline.stdout).compactMap(JSONLines.origin)
        #expect(!origins.isEmpty && origins.allSatisfy { $0 == "cache" }, "\(offline.stdout)")
    }

    @Test("with the remote down, a query never searched is answered from the movies other queries cached")
    func remoteDownSearchesTheCachedMovies() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        #expect(try sandbox.movies(["search", "star", "--json"]).status == 0)
        try await sandbox.setFaults(#"{"down": true}"#)
        let local = try sandbox.movies(["search", "wars", "--format", "table"])
        #expect(local.status == 0, "\(local.stderr)")
        #expect(local.stdout.contains("offline — "), "\(local.stdout)")
        #expect(local.stdout.contains("among cached movies"), "\(local.stdout)")
        #expect(local.stdout.contains("Star Wars"), "\(local.stdout)")
        let json = try sandbox.movies(["search", "--local", "wars", "--json"])
        #expect(JSONLines.parse(json.stdout).compactMap(JSONLines.origin) == ["local_index"], "\(json.stdout)")
        // Nothing found locally is an answer, not an outage: exit 0, whether TMDB is up or not.
        let none = try sandbox.movies(["search", "--local", "zzqx", "--format", "table"])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.stdout.contains("No matches for \"zzqx\" in the local index"), "\(none.stdout)")
        try await sandbox.setFaults(#"{"down": false}"#)
        let online = try sandbox.movies(["search", "--local", "zzqx"])
        #expect(online.status == 0, "\(online.stderr)")
        #expect(!online.stderr.contains("network is back"), "\(online.stderr)")
    }

    @Test("a query never seen while the remote is down exits 75 with a clear message")
    func unseenQueryWhileDown() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        try sandbox.startStub(["--down"])
        try sandbox.startDaemon()
        let result = try sandbox.movies(["search", "never seen before"])
        #expect(result.status == 75)
        #expect(!result.stderr.isEmpty)
        #expect(!result.stderr.contains(Sandbox.token))
    }

    @Test("when the remote comes back, fresh data flows again")
    func remoteComesBack() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.shutdown() }
        try sandbox.startStub(["--down"])
        try sandbox.startDaemon()
        #expect(try sandbox.movies(["search", "love"]).status == 75)
        try await sandbox.setFaults(#"{"down": false}"#)
        // The daemon may be in its offline backoff; it must recover within a bounded time.
        var origin: String?
        let recovered = BackgroundProcess.waitUntil {
            guard let result = try? sandbox.movies(["search", "love", "--json", "--fresh"]), result.status == 0 else {
                usleep(200_000)
                return false
            }
            origin = JSONLines.parse(result.stdout).last.flatMap(JSONLines.origin)
            return true
        }
        #expect(recovered)
        #expect(origin == "network")
    }

    @Test("malformed remote JSON never enters the cache")
    func malformedJSONNeverCached() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        try await sandbox.setFaults(#"{"malformedJSON": 1.0}"#)
        let broken = try sandbox.movies(["search", "night", "--json"])
        #expect(broken.status != 0)
        try await sandbox.setFaults(#"{"malformedJSON": 0.0, "down": true}"#)
        let offline = try sandbox.movies(["search", "night", "--json", "--offline"])
        #expect(offline.status == 75, "expected nothing cached: \(offline.stdout)")
    }

    @Test("a 429 storm slows the daemon down and it recovers")
    func rateLimitStorm() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        try await sandbox.setFaults(#"{"rateLimit": {"share": 1.0, "retryAfter": 1}}"#)
        for index in 0..<5 {
            let result = try sandbox.movies(["search", "storm \(index)"])
            #expect(result.status == 75)
        }
        // Five calls, each allowed a few retries at most: the daemon must not hammer the remote.
        let stormRequests = try await sandbox.requestCount("/3/search/movie")
        #expect(stormRequests <= 15, "daemon sent \(stormRequests) requests during the storm")
        try await sandbox.setFaults(#"{"rateLimit": {"share": 0.0, "retryAfter": 0}}"#)
        let recovered = BackgroundProcess.waitUntil {
            (try? sandbox.movies(["search", "storm over", "--fresh"]).status) == 0 || { usleep(200_000); return false }()
        }
        #expect(recovered)
    }

    @Test("SIGKILL in the middle of writes loses nothing acknowledged and leaves an intact database")
    func killMidWrite() async throws {
        let sandbox = try Sandbox.running()
        defer { sandbox.shutdown() }
        let words = ["star", "love", "night", "city", "dark", "moon", "river", "king"]
        var acknowledged: [(String, Int)] = []
        for word in words {
            for page in 1...2 {
                let result = try sandbox.movies(["search", word, "--page", "\(page)", "--json", "--fresh"])
                if result.status == 0 { acknowledged.append((word, page)) }
            }
        }
        // Keep writing in the background while the daemon is killed.
        let writer = try BackgroundProcess(
            "/bin/sh", ["-c", "for i in $(seq 1 50); do \(BinaryLocator.path("movies")) --socket \(sandbox.socketPath) search \"word$i\" --fresh >/dev/null 2>&1; done"],
            logDirectory: sandbox.directory, name: "writer"
        )
        usleep(300_000)
        sandbox.daemon?.stop(signal: SIGKILL)
        writer.stop(signal: SIGKILL)
        #expect(!acknowledged.isEmpty)

        let check = try ProcessRunner.run("/usr/bin/sqlite3", [sandbox.databasePath, "PRAGMA integrity_check;"])
        #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok", "\(check.stdout) \(check.stderr)")

        try? FileManager.default.removeItem(atPath: sandbox.socketPath)
        try sandbox.startDaemon()
        try await sandbox.setFaults(#"{"down": true}"#)
        for (word, page) in acknowledged {
            let result = try sandbox.movies(["search", word, "--page", "\(page)", "--offline", "--json"])
            #expect(result.status == 0, "lost \(word) page \(page): \(result.stderr)")
        }
    }
}
