import FoundationEssentials
import Glibc
import MoviesDomain
import MoviesWire
import Varlink

/// `MoviesClient` over Varlink: calls `io.moviesd.Movies` on the daemon's Unix socket and decodes
/// each reply's parameters with `WireCoding` (the daemon's own codec) into the reply structs. The only file that uses Varlink.
public final class VarlinkMoviesClient: MoviesClient {
    static let interface = "io.moviesd.Movies"

    /// The socket this client connects to.
    public let socketPath: String
    private let timeoutMilliseconds: Int?
    private var connection: VarlinkClient?
    /// Whether the calls that take `system` act on the system's watchlists or account.
    public let actsOnSystem: Bool
    /// The user whose personal watchlists the calls that take `owner` act on (`--owner`), if any.
    public let owner: UInt32?

    /// The methods that act on the caller's own watchlists or account, or with `system: true` on
    /// the system's.
    static let ownedMethods: Set<String> = [
        "AddToWatchlist", "RemoveFromWatchlist", "DeleteWatchlist", "Refresh",
        "AccountLogin", "AccountLogout", "AccountEdit", "Account", "Pending", "Sync",
    ]

    /// The methods that act, with `owner: UID`, on that user's personal watchlists.
    static let ownerMethods: Set<String> = ["AddToWatchlist", "RemoveFromWatchlist", "DeleteWatchlist", "Refresh"]

    /// Creates a client for the daemon at `socketPath`; it connects on the first call, and waits
    /// at most `timeoutMilliseconds` for the connection and for each reply (`nil`: forever).
    /// `actsOnSystem`: the watchlist and account calls act on the system's (`--system`); `owner`:
    /// the watchlist edits and refreshes act on that user's personal watchlists (`--owner`).
    public init(socketPath: String, timeoutMilliseconds: Int? = 60_000, actsOnSystem: Bool = false, owner: UInt32? = nil) {
        self.socketPath = socketPath
        self.timeoutMilliseconds = timeoutMilliseconds
        self.actsOnSystem = actsOnSystem
        self.owner = owner
    }

    /// A client on the same socket acting on the system's watchlists and account.
    public func actingOnSystem() -> any MoviesClient {
        VarlinkMoviesClient(socketPath: socketPath, timeoutMilliseconds: timeoutMilliseconds, actsOnSystem: true)
    }

    /// A client on the same socket acting on the personal watchlists of the user `uid`.
    public func actingFor(owner uid: UInt32) -> any MoviesClient {
        VarlinkMoviesClient(socketPath: socketPath, timeoutMilliseconds: timeoutMilliseconds, owner: uid)
    }

    deinit { connection?.close() }

    /// Calls `Search`, with `more` under the default policy so the cached page comes first.
    public func search(_ parameters: SearchParameters, onReply: (ClientReply<SearchReply>) -> Void) throws(ClientError) {
        var arguments: [String: JSONValue] = ["query": .string(parameters.query), "page": .int(Int64(parameters.page))]
        if let policy = parameters.policy { arguments["policy"] = .string(policy.rawValue) }
        if let maxStale = parameters.maxStaleSeconds { arguments["maxStaleSeconds"] = .int(Int64(maxStale)) }
        if let language = parameters.language { arguments["language"] = .string(language) }
        if let region = parameters.region { arguments["region"] = .string(region) }
        if let year = parameters.year { arguments["year"] = .int(Int64(year)) }
        if !parameters.remember { arguments["remember"] = .bool(false) }
        let streams = (parameters.policy ?? .default).streamsReplies
        try stream("Search", arguments, more: streams, as: SearchReply.self, onReply: onReply)
    }

    /// Calls `Movie`, with `more` under the default policy.
    public func movie(id: Int, language: String?, policy: FetchPolicy?, onReply: (ClientReply<MovieReply>) -> Void) throws(ClientError) {
        var arguments: [String: JSONValue] = ["id": .int(Int64(id))]
        if let language { arguments["language"] = .string(language) }
        if let policy { arguments["policy"] = .string(policy.rawValue) }
        let streams = (policy ?? .default).streamsReplies
        try stream("Movie", arguments, more: streams, as: MovieReply.self, onReply: onReply)
    }

    /// Calls `Poster`.
    public func poster(path: String, width: Int?) throws(ClientError) -> ClientReply<PosterReply> {
        var arguments: [String: JSONValue] = ["path": .string(path)]
        if let width { arguments["width"] = .int(Int64(width)) }
        return try single("Poster", arguments, as: PosterReply.self)
    }

    /// Calls `RecentQueries`.
    public func recentQueries(limit: Int?) throws(ClientError) -> ClientReply<RecentQueriesReply> {
        try single("RecentQueries", limit.map { ["limit": .int(Int64($0))] } ?? [:], as: RecentQueriesReply.self)
    }

    /// Calls `SaveRecentQuery`.
    public func saveRecentQuery(_ query: String) throws(ClientError) -> ClientReply<EmptyReply> {
        try single("SaveRecentQuery", ["query": .string(query)], as: EmptyReply.self)
    }

    /// Calls `ClearRecentQueries`.
    public func clearRecentQueries() throws(ClientError) -> ClientReply<ClearRecentQueriesReply> {
        try single("ClearRecentQueries", [:], as: ClearRecentQueriesReply.self)
    }

    /// Calls `Status`.
    public func status() throws(ClientError) -> ClientReply<StatusReply> {
        try single("Status", [:], as: StatusReply.self)
    }

    /// Calls `UpdateCatalogue` on a connection of its own that waits for the reply as long as
    /// the daemon takes (a download and an import of a million titles): the daemon's call
    /// deadline bounds it.
    public func updateCatalogue() throws(ClientError) -> ClientReply<CatalogueUpdateReply> {
        try VarlinkMoviesClient(socketPath: socketPath, timeoutMilliseconds: nil, actsOnSystem: actsOnSystem, owner: owner)
            .single("UpdateCatalogue", [:], as: CatalogueUpdateReply.self)
    }

    /// Calls `Invalidate` or `Purge` with the selection as parameters.
    public func maintainCache(_ operation: CacheOperation, selection: CacheSelection) throws(ClientError) -> ClientReply<CacheMaintenanceReply> {
        let arguments: [String: JSONValue] = switch selection {
        case .all: ["all": .bool(true)]
        case .query(let query): ["query": .string(query)]
        case .movie(let id): ["movieId": .int(Int64(id))]
        case .posters: ["posters": .bool(true)]
        }
        let method = operation == .invalidate ? "Invalidate" : "Purge"
        return try single(method, arguments, as: CacheMaintenanceReply.self)
    }

    // MARK: - Calls

    func single<Value: Decodable & Sendable>(
        _ method: String, _ arguments: [String: JSONValue], as type: Value.Type
    ) throws(ClientError) -> ClientReply<Value> {
        var last: ClientReply<Value>?
        try stream(method, arguments, more: false, as: type) { last = $0 }
        guard let last else { throw ClientError.other("moviesd sent no answer (asked to \(CallDescription.action(method))); try again") }
        return last
    }

    func stream<Value: Decodable & Sendable>(
        _ method: String, _ arguments: [String: JSONValue], more: Bool, as type: Value.Type,
        onReply: (ClientReply<Value>) -> Void
    ) throws(ClientError) {
        let client = try connect()
        var arguments = arguments
        if actsOnSystem, Self.ownedMethods.contains(method) { arguments["system"] = .bool(true) }
        if let owner, Self.ownerMethods.contains(method) { arguments["owner"] = .int(Int64(owner)) }
        var failure: ClientError?
        do {
            try client.call("\(Self.interface).\(method)", parameters: arguments, more: more) { reply in
                guard failure == nil else { return }
                if let name = reply.error {
                    failure = VarlinkErrorMapping.clientError(name: name, parameters: Self.errorParameters(reply.parameters), method: method)
                    return
                }
                do {
                    let value = try WireCoding.decode(Value.self, from: reply.parameters)
                    onReply(ClientReply(value: value, parameters: reply.parameters, continues: reply.continues))
                } catch {
                    failure = .other("moviesd sent an answer this client cannot read (asked to \(CallDescription.action(method)): \(error)); are moviesd and movies the same version?")
                }
            }
        } catch let error as ClientError {
            failure = failure ?? error
        } catch {
            connection = nil
            failure = failure ?? .daemonUnreachable(socketPath: socketPath, reason: "connection lost: \(error)")
        }
        if case .credentialProblem? = failure, method != "Status", let explained = credentialProblemAsStatusSaysIt() {
            throw explained
        }
        // Another user's own daemon refuses whoever else gets through its socket (root): it
        // cannot tell who they are (its user namespace maps its owner alone).
        if case .permissionDenied? = failure, let owner = SocketOwner.system.privateOwner(of: socketPath, callerUID: getuid()) {
            throw .anotherUsersDaemon(socketPath: socketPath, owner: owner)
        }
        if let failure { throw failure }
    }

    /// The daemon's own account of its credential problem, from `Status`: while TMDB is not asked
    /// again (backing off), a call is refused with a generic sentence, but the remote's last error
    /// says what is wrong (no credential configured, or TMDB's answer to it). `nil` when `Status`
    /// says nothing more.
    private func credentialProblemAsStatusSaysIt() -> ClientError? {
        guard let remote = try? single("Status", [:], as: StatusReply.self).value.remote,
              remote.state == .authRejected, let lastError = remote.lastError else { return nil }
        return .credentialProblem(lastError.hasSuffix(".") ? String(lastError.dropLast()) : lastError)
    }

    private static func errorParameters(_ value: JSONValue) -> VarlinkErrorMapping.Parameters {
        var parameters = VarlinkErrorMapping.Parameters()
        for (key, member) in value.objectValue ?? [:] {
            if let string = member.stringValue { parameters.strings[key] = string }
            if let integer = member.intValue { parameters.integers[key] = integer }
        }
        return parameters
    }

    /// The error for a socket the file system refused: another user's own daemon says so (the
    /// owner alone may use a user service), anything else is `reason`.
    private func refusal(_ reason: String) -> ClientError {
        let owner = SocketOwner.system
        if let other = owner.otherUser(of: socketPath, callerUID: getuid()) {
            return .anotherUsersDaemon(socketPath: socketPath, owner: other)
        }
        return .permissionDenied(reason, remedy: owner.remedy(forRefused: socketPath))
    }

    func connect() throws(ClientError) -> VarlinkClient {
        if let connection { return connection }
        var info = stat()
        if stat(socketPath, &info) != 0 {
            // A directory on the way this user may not search: a permission problem (77), not a
            // daemon to start (69).
            if errno == EACCES {
                throw refusal("a directory on the way to the socket \(socketPath) is not searchable by this user")
            }
            throw .daemonUnreachable(socketPath: socketPath, reason: "no socket there")
        }
        if access(socketPath, R_OK | W_OK) != 0, errno == EACCES {
            throw refusal("the socket \(socketPath) is not accessible to this user")
        }
        do {
            let client = try VarlinkClient(unixPath: socketPath, timeoutMilliseconds: timeoutMilliseconds)
            connection = client
            return client
        } catch {
            if case .connectFailed(let number) = error.code, number == EACCES || number == EPERM {
                throw refusal("the socket \(socketPath) refuses connections from this user")
            }
            throw .daemonUnreachable(socketPath: socketPath, reason: error.description)
        }
    }
}
