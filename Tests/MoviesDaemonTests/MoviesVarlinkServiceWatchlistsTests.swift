import FoundationEssentials
@testable import MoviesDaemon
import MoviesData
import MoviesDomain
import MoviesTestSupport
import Synchronization
import Testing
@testable import Varlink

/// The watchlist and refresh methods of the service, called in process with chosen peers.
@Suite struct MoviesVarlinkServiceWatchlistsTests {
    static let root = PeerCredentials(pid: 1, uid: 0, gid: 0)
    static let nobody = PeerCredentials(pid: 2, uid: 65534, gid: 65534)

    static func service() -> MoviesVarlinkService {
        let responses = InMemoryResponseStorage()
        let remote = ScriptedMoviesRemote { request, _ in
            guard case .movie(let id, _) = request else { throw MoviesError(code: .remoteUnavailable, message: "down") }
            return TMDBSampleBodies.ok(TMDBSampleBodies.movie(id: id, title: "Movie \(id)"))
        }
        let health = RemoteHealth()
        let movies = DefaultMoviesRepository(storage: responses, remote: remote, health: health)
        let watchlists = DefaultWatchlistRepository(storage: InMemoryWatchlistStorage(), responses: responses)
        let refresher = WatchlistRefresher(
            watchlists: watchlists, movies: movies,
            posterImages: DefaultPosterImagesRepository(storage: responses, remote: remote, health: health),
            responses: responses, settings: .init(posters: false))
        let queries = DefaultMoviesQueriesRepository(storage: InMemoryRecentQueriesStorage())
        let dependencies = MoviesVarlinkService.Dependencies(
            searchMovies: SearchMoviesUseCase(moviesRepository: movies, queriesRepository: queries),
            fetchMovieDetails: FetchMovieDetailsUseCase(moviesRepository: movies),
            fetchPosterImage: FetchPosterImageUseCase(posterImagesRepository: DefaultPosterImagesRepository(storage: responses, remote: remote, health: health)),
            fetchRecentQueries: FetchRecentQueriesUseCase(queriesRepository: queries),
            cacheMaintenance: DefaultCacheMaintenanceRepository(storage: responses), remoteStatus: health,
            watchlists: WatchlistDependencies(
                manageWatchlists: ManageWatchlistsUseCase(repository: watchlists),
                refreshWatchlists: RefreshWatchlistsUseCase(refresher: refresher),
                refreshStatus: { scope in RefreshStatus(running: false, last: await refresher.activity(seenBy: scope).last, scheduler: .disabled) }))
        return MoviesVarlinkService(dependencies: dependencies, settings: .init(version: "t", startedAt: Date(), answerDeadlineSeconds: 1, daemonUID: 999, authorizedGID: nil))
    }

    static func call(_ service: MoviesVarlinkService, _ method: String, _ parameters: [String: JSONValue] = [:], peer: PeerCredentials, more: Bool = false,
                     sent: SentReplies = SentReplies()) async throws(VarlinkError) -> [String: JSONValue] {
        let writer = VarlinkReplyWriter(isStreaming: more) { pieces in sent.append(String(decoding: pieces.joined(), as: UTF8.self)) }
        let call = VarlinkCall(method: "io.moviesd.Movies.\(method)", parameters: parameters, more: more, peer: peer)
        return try await service.handle(call, replies: writer)
    }

    @Test func systemListsNeedAnAdministratorPersonalOnesAnyoneAndListingIsOpen() async throws {
        let service = Self.service()
        let add: [String: JSONValue] = ["name": .string("films"), "queries": .array([.string("heat")]), "movieIds": .array([.int(603)]), "pages": .int(2)]
        let system: [String: JSONValue] = ["system": .bool(true)]
        let edits: [(String, [String: JSONValue])] = [
            ("AddToWatchlist", add.merging(system) { $1 }),
            ("RemoveFromWatchlist", ["name": .string("films"), "movieIds": .array([.int(603)]), "system": .bool(true)]),
            ("DeleteWatchlist", ["name": .string("films"), "system": .bool(true)]), ("Refresh", system),
        ]
        for (method, parameters) in edits {
            await #expect(throws: VarlinkError.permissionDenied, "\(method)") { try await Self.call(service, method, parameters, peer: Self.nobody) }
        }
        let added = try await Self.call(service, "AddToWatchlist", add.merging(system) { $1 }, peer: Self.root)
        #expect(added["watchlist"]?.serializedString.contains(#""pages":2"#) == true)
        #expect(added["watchlist"]?["owner"] == nil, "a system list has no owner")
        let listed = try await Self.call(service, "Watchlists", peer: Self.nobody)
        #expect(listed["watchlists"]?.serializedString.contains(#""movieIds":[603]"#) == true)
        // Without system, nobody's "films" is nobody's own list, beside the system's.
        let own = try await Self.call(service, "AddToWatchlist", ["name": .string("films"), "movieIds": .array([.int(11)])], peer: Self.nobody)
        #expect(own["watchlist"]?["owner"] == .int(65534))
        #expect(try await Self.call(service, "Watchlists", peer: Self.nobody)["watchlists"]?.arrayValue?.count == 2)
        #expect(try await Self.call(service, "Watchlists", peer: Self.root)["watchlists"]?.arrayValue?.count == 1, "root's own view")
        #expect(try await Self.call(service, "Watchlists", ["allUsers": .bool(true)], peer: Self.root)["watchlists"]?.arrayValue?.count == 2)
        // Root's "films" is the system's (root has none of its own).
        let removed = try await Self.call(service, "RemoveFromWatchlist", ["name": .string("films"), "queries": .array([.string("HEAT")])], peer: Self.root)
        #expect(removed["watchlist"]?.serializedString.contains("heat") == false)
        _ = try await Self.call(service, "DeleteWatchlist", ["name": .string("films")], peer: Self.root)
        // A missing watchlist is NotFound naming it (it was InvalidArgument "parameters": exit 64 in the CLI).
        await #expect(throws: VarlinkError(name: "io.moviesd.Movies.NotFound", parameters: [
            "id": .int(0), "reason": .string("there is no watchlist named 'films'"), "watchlist": .string("films"),
        ])) { try await Self.call(service, "DeleteWatchlist", ["name": .string("films"), "system": .bool(true)], peer: Self.root) }
        await #expect(throws: VarlinkError.invalidParameter("queries")) {
            try await Self.call(service, "AddToWatchlist", ["name": .string("x"), "queries": .string("not an array")], peer: Self.root)
        }
    }

    @Test func refreshWithMoreStreamsProgressThenTheSummaryAndStatusReportsIt() async throws {
        let service = Self.service()
        _ = try await Self.call(service, "AddToWatchlist", ["name": .string("films"), "movieIds": .array([.int(603), .int(11)])], peer: Self.root)
        let sent = SentReplies()
        let final = try await Self.call(service, "Refresh", ["watchlist": .string("films")], peer: Self.root, more: true, sent: sent)
        let replies = sent.messages
        #expect(replies.count == 2)
        #expect(replies.allSatisfy { $0.contains(#""continues":true"#) && $0.contains(#""progress""#) })
        #expect(final["summary"]?.serializedString.contains(#""done":2"#) == true)
        // The final reply carries the last progress too, with the summary's counts.
        let last = try #require(final["progress"]?.serializedString)
        #expect(last.contains(#""watchlist":"films""#) && last.contains(#""done":2"#) && last.contains(#""total":2"#))
        #expect(last.contains(#""failed":0"#) && last.contains(#""skipped":0"#))
        #expect(replies.last?.contains(last) == true, "the last streamed step, repeated")
        // Root's own list: root's Status shows its refresh, another user's does not (issue 31).
        let status = try await Self.call(service, "Status", peer: Self.root)
        #expect(status["lastRefresh"]?.stringValue?.hasSuffix("Z") == true)
        #expect(status["refresh"]?["last"]?["done"] == .int(2))
        let nobodys = try await Self.call(service, "Status", peer: Self.nobody)
        #expect(nobodys["lastRefresh"] == nil)
        #expect(nobodys["refresh"] != nil && nobodys["refresh"]?["last"] == nil)
    }
}

extension MoviesVarlinkServiceWatchlistsTests {
    @Test func refreshWithoutMoreAnswersOnceWithTheLastProgressAndTheSummary() async throws {
        let service = Self.service()
        _ = try await Self.call(service, "AddToWatchlist", ["name": .string("films"), "movieIds": .array([.int(603)])], peer: Self.root)
        let sent = SentReplies()
        let final = try await Self.call(service, "Refresh", ["watchlist": .string("films")], peer: Self.root, sent: sent)
        #expect(sent.messages.isEmpty)
        let progress = try #require(final["progress"]?.serializedString)
        #expect(progress.contains(#""done":1"#) && progress.contains(#""total":1"#) && progress.contains(#""step":"movie 603""#))
        #expect(final["summary"]?.serializedString.contains(#""done":1"#) == true)
    }
}

/// Intermediate replies a call sent, as text.
final class SentReplies: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ message: String) { storage.withLock { $0.append(message) } }
    var messages: [String] { storage.withLock { $0 } }
}

extension JSONValue {
    /// The value as JSON text.
    fileprivate var serializedString: String { String(decoding: serialized(), as: UTF8.self) }
}
