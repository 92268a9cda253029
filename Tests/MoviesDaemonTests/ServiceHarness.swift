import Foundation
@testable import MoviesDaemon
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Synchronization
import Testing
@testable import Varlink

/// A `MoviesVarlinkService` over the real repositories, an in-memory cache and a scripted TMDB,
/// called through `handle` with a reply writer that records the intermediate replies.
struct ServiceHarness {
    /// The daemon's uid in these tests (not the test process's, so "own uid" is decided by the setting).
    static let daemonUID: UInt32 = 4242
    /// The group allowed to mutate.
    static let authorizedGID: UInt32 = 4343
    /// A peer running as the daemon's uid.
    static let owner = PeerCredentials(pid: 10, uid: daemonUID, gid: 100)
    /// A peer that is neither root, the daemon's uid, nor in the authorised group (uid/gid unused on the machine).
    static let stranger = PeerCredentials(pid: 11, uid: 3_999_999, gid: 3_999_999)

    /// The cache, with the daemon's memory of entries in front of it (what answers from memory).
    let storage: InMemoryResponseStorage
    let recentQueries = InMemoryRecentQueriesStorage()
    let remote = ScriptedMoviesRemote()
    let health: RemoteHealth
    let clock = TestClock()
    let startedAt: Date
    /// The storage health the repositories record and `Status` reports.
    let storageHealth: StorageHealthMonitor
    let service: MoviesVarlinkService

    /// With `localIndex`, searches fall back to the movies the cache holds (the in-memory storage is its own index).
    /// The answer deadline runs on the real clock: tests that are not about it get the generous
    /// hang guard, so a busy machine cannot make it fire (it did at 3 s under stress-ng).
    init(answerDeadlineSeconds: Int = Int(ProcessDeadline.seconds), startedAt: Date = Date(), daemonUID: UInt32 = ServiceHarness.daemonUID, health: RemoteHealth? = nil, events: any EventLog = DiscardingEventLog(), localIndex: Bool = false, defaultLanguage: String? = nil) {
        self.startedAt = startedAt
        storage = InMemoryResponseStorage(memoryBytes: 128 << 20, clock: clock.now)
        // Retry-After and back-off run on the harness's clock: a stalled machine cannot expire them.
        let health = health ?? RemoteHealth(now: clock.now)
        self.health = health
        let policy = CachePolicy()
        let storageHealth = StorageHealthMonitor(events: events, now: clock.now)
        self.storageHealth = storageHealth
        let movies = DefaultMoviesRepository(
            storage: storage, remote: remote, health: health, policy: policy, now: clock.now, storageHealth: storageHealth,
            index: localIndex ? storage : nil)
        let queries = DefaultMoviesQueriesRepository(storage: recentQueries, now: clock.now)
        let posters = DefaultPosterImagesRepository(storage: storage, remote: remote, health: health, policy: policy, now: clock.now, storageHealth: storageHealth)
        let dependencies = MoviesVarlinkService.Dependencies(
            searchMovies: SearchMoviesUseCase(moviesRepository: movies, queriesRepository: queries),
            fetchMovieDetails: FetchMovieDetailsUseCase(moviesRepository: movies),
            fetchPosterImage: FetchPosterImageUseCase(posterImagesRepository: posters),
            fetchRecentQueries: FetchRecentQueriesUseCase(queriesRepository: queries),
            cacheMaintenance: DefaultCacheMaintenanceRepository(storage: storage, policy: policy, now: clock.now, storageHealth: storageHealth),
            remoteStatus: health, storageHealth: storageHealth)
        let settings = MoviesVarlinkService.Settings(
            version: "9.8.7", startedAt: startedAt, answerDeadlineSeconds: answerDeadlineSeconds,
            daemonUID: daemonUID, authorizedGID: ServiceHarness.authorizedGID, events: events,
            remembered: { [storage] key in storage.remembered(forKey: key) },
            now: clock.now, defaultLanguage: defaultLanguage)
        service = MoviesVarlinkService(dependencies: dependencies, settings: settings)
    }

    /// Calls `io.moviesd.Movies.<method>` as `peer`.
    /// With `firstReplySent`, as the server runs a call whose first reply `answerAtOnce` sent.
    func call(_ method: String, _ parameters: [String: JSONValue] = [:], more: Bool = false, peer: PeerCredentials? = ServiceHarness.owner, firstReplySent: Bool = false) async -> CallOutcome {
        let recorder = ReplyRecorder()
        let writer = VarlinkReplyWriter(isStreaming: more) { pieces in recorder.record(Array(pieces.joined())) }
        var call = VarlinkCall(method: "\(MoviesInterface.name).\(method)", parameters: parameters, more: more, peer: peer)
        call.firstReplySent = firstReplySent
        do {
            let final = try await service.handle(call, replies: writer)
            return CallOutcome(intermediate: recorder.messages, final: .success(final))
        } catch {
            return CallOutcome(intermediate: recorder.messages, final: .failure(error))
        }
    }

    // MARK: - Cache and remote set-up

    /// Caches search page `page` of `text` (no language) with `titles`, fetched `age` seconds ago,
    /// as the daemon stores it: with its reply (`withReply: false`: as a row stored before replies were).
    func seedSearch(_ text: String, page: Int = 1, titles: [String], age: Double = 60, fresh: Bool = true, withReply: Bool = true) async throws {
        let query = try #require(MovieQuery(text))
        let fetchedAt = clock.date.addingTimeInterval(-age)
        let expiresAt = fresh ? clock.date.addingTimeInterval(3600) : clock.date.addingTimeInterval(-1)
        let body = TMDBSampleBodies.searchPage(page: page, titles: titles)
        let reply = withReply ? try WireCoding.bytes(MoviesResponseDTO.decode(body).toDomain()) : nil
        await storage.seed(StoredResponse(
            key: CacheKey.search(query, page: page, language: nil), resource: .search,
            body: body, fetchedAt: fetchedAt, expiresAt: expiresAt, reply: reply, replyVersion: WireCoding.version))
    }

    /// Caches movie `id`'s details, with their reply.
    func seedMovie(id: Int, title: String) async {
        let body = TMDBSampleBodies.movie(id: id, title: title)
        await storage.seed(StoredResponse(
            key: CacheKey.movie(id: id, language: nil), resource: .movie,
            body: body, fetchedAt: clock.date.addingTimeInterval(-30),
            expiresAt: clock.date.addingTimeInterval(3600),
            reply: try? WireCoding.bytes(MovieDetailsDTO.decode(body).toDomain()), replyVersion: WireCoding.version))
    }

    /// Scripts TMDB's answer to the search for `text`, page `page`.
    func scriptSearch(_ text: String, page: Int = 1, titles: [String]) async {
        await remote.script(.search(query: text, page: page, language: nil), .success(TMDBSampleBodies.ok(TMDBSampleBodies.searchPage(page: page, titles: titles))))
    }

    /// Scripts a failure for the search for `text`.
    func scriptSearchFailure(_ text: String, page: Int = 1, message: String = "connection refused") async {
        await remote.script(.search(query: text, page: page, language: nil), .failure(MoviesError(code: .remoteUnavailable, message: message)))
    }

    /// What one call produced.
    struct CallOutcome: Sendable {
        /// The parameters of each intermediate (`continues: true`) reply, in order.
        var intermediate: [JSONValue]
        /// The final reply's parameters, or the error reply.
        var final: Result<[String: JSONValue], VarlinkError>

        /// The final reply's parameters as a JSON object (through a serialise/parse round trip, as a client sees them).
        var reply: JSONValue? {
            guard case .success(let parameters) = final else { return nil }
            return try? JSONValue.parse(JSONValue.object(parameters).serialized())
        }

        /// The error reply, if the call failed.
        var error: VarlinkError? {
            guard case .failure(let error) = final else { return nil }
            return error
        }

        /// The final reply decoded as `T` with the wire decoder.
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let parameters = try final.get()
            return try WireCoding.decode(T.self, from: Array(JSONValue.object(parameters).serialized()))
        }

        /// Intermediate reply `index` decoded as `T` with the wire decoder.
        func decodeIntermediate<T: Decodable>(_ index: Int, as type: T.Type) throws -> T {
            try WireCoding.decode(T.self, from: Array(intermediate[index].serialized()))
        }
    }

    /// Collects what a `VarlinkReplyWriter` delivers.
    final class ReplyRecorder: Sendable {
        private let delivered = Mutex<[[UInt8]]>([])

        func record(_ bytes: [UInt8]) {
            delivered.withLock { $0.append(bytes) }
        }

        /// The `parameters` of every delivered message (only `continues: true` ones are delivered).
        var messages: [JSONValue] {
            delivered.withLock { $0 }.map { bytes in
                let message = (try? JSONValue.parse(bytes)) ?? .null
                return message["parameters"] ?? .null
            }
        }

        /// The `continues` flag of every delivered message.
        var continuesFlags: [Bool?] {
            delivered.withLock { $0 }.map { bytes in (try? JSONValue.parse(bytes))?["continues"]?.boolValue }
        }
    }


    /// Runs `work`, failing with `TimedOut` if it takes longer than `seconds` (the work is cancelled).
    static func withTimeout<T: Sendable>(seconds: Double, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                throw TimedOut()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw TimedOut() }
            return first
        }
    }

    /// A bounded wait ran out.
    struct TimedOut: Error {}

    /// Polls `condition` every 10 ms until it holds or `seconds` pass (a hang guard: by default the
    /// one generous `ProcessDeadline`); returns whether it became true.
    static func eventually(seconds: Double = ProcessDeadline.seconds, _ condition: @Sendable () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return await condition()
    }

    /// Serves this harness's service on a real Unix socket (in a temporary directory), runs
    /// `client` with a connected blocking client on its own thread, stops the server and returns
    /// what `client` returned.
    func overARealSocket<Result: Sendable>(_ client: @escaping @Sendable (VarlinkClient) throws -> Result) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moviesd-svc-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("io.moviesd.Movies").path
        let configuration = VarlinkServerConfiguration(vendor: "moviesd", product: "moviesd", version: "9.8.7", url: "https://example.org")
        let server = VarlinkServer(configuration: configuration, handlers: [service])
        let listener = try VarlinkListener.bind(path: path)
        let task = Task { try await server.run(on: listener) }
        defer { server.shutdown(gracePeriodSeconds: 0) }
        let result = try await ServiceHarness.offThread { () throws -> Result in
            try client(try VarlinkClient(unixPath: path, timeoutSeconds: ProcessDeadline.replySeconds))
        }
        server.shutdown(gracePeriodSeconds: 0)
        _ = await task.result
        return result
    }

    /// Runs blocking work (a blocking client) on its own thread so it never occupies one of the
    /// few threads that run Swift concurrency tasks (the server's handlers).
    static func offThread<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Swift.Result { try work() })
            }
            thread.start()
        }
    }
}
