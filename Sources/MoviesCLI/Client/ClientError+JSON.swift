import Varlink

extension ClientError {
    /// The stable name `--json` prints for this error: the daemon's Varlink error name when the
    /// daemon sent one, else a name in `io.moviesd.cli` for failures the client saw itself.
    public var errorName: String {
        switch self {
        case .daemonUnreachable: "io.moviesd.cli.DaemonUnreachable"
        case .permissionDenied, .rootOnly, .anotherUsersDaemon: "org.varlink.service.PermissionDenied"
        case .remoteUnavailable: "io.moviesd.Movies.RemoteUnavailable"
        case .notCached: "io.moviesd.Movies.NotCached"
        case .notFound, .noSuchWatchlist, .notInWatchlist: "io.moviesd.Movies.NotFound"
        case .remoteRejected, .credentialProblem: "io.moviesd.Movies.RemoteRejected"
        case .invalidArgument: "io.moviesd.Movies.InvalidArgument"
        case .storageFailure: "io.moviesd.Movies.StorageFailure"
        case .tooManyConnections: "io.moviesd.Movies.TooManyConnections"
        case .other: "io.moviesd.cli.Failure"
        case .notSignedIn: "io.moviesd.Movies.NotSignedIn"
        }
    }

    /// The machine-readable details of this error (`reason`, `socketPath`, `id`, `retryAfterSeconds`).
    var jsonParameters: [String: JSONValue] {
        switch self {
        case let .daemonUnreachable(socketPath, reason):
            ["socketPath": .string(socketPath), "reason": .string(reason)]
        case let .anotherUsersDaemon(socketPath, owner):
            ["socketPath": .string(socketPath), "owner": .string(owner), "reason": .string(message)]
        case let .remoteUnavailable(reason, retryAfterSeconds, _):
            ["reason": .string(reason)].merging(retryAfterSeconds.map { ["retryAfterSeconds": .int(Int64($0))] } ?? [:]) { a, _ in a }
        case let .notFound(id, reason):
            (id.map { ["id": .int(Int64($0))] } ?? [:]).merging(reason.map { ["reason": .string($0)] } ?? [:]) { a, _ in a }
        case let .noSuchWatchlist(name):
            ["watchlist": .string(name), "reason": .string("there is no watchlist named '\(name)'")]
        case let .notInWatchlist(name, queries, movieIDs, _):
            ["watchlist": .string(name), "queries": .array(queries.map { .string($0) }),
             "movieIds": .array(movieIDs.map { .int(Int64($0)) }), "reason": .string(message)]
        case .rootOnly:
            ["reason": .string(message)]
        case let .storageFailure(reason, fault):
            ["reason": .string(reason)].merging(fault.map { ["fault": .string($0)] } ?? [:]) { a, _ in a }
        case let .permissionDenied(reason, _), let .notCached(reason, _), let .remoteRejected(reason), let .credentialProblem(reason), let .notSignedIn(reason),
             let .invalidArgument(reason), let .tooManyConnections(reason), let .other(reason):
            ["reason": .string(reason)]
        }
    }

    /// The JSON error object `{"error": NAME, "exitCode": N, "message": TEXT, "parameters": {…}}`;
    /// `exitCode` is the code the program ends with.
    func json(exitCode: ExitCode) -> JSONValue {
        .object([
            "error": .string(errorName),
            "exitCode": .int(Int64(exitCode.rawValue)),
            "message": .string(message),
            "parameters": .object(jsonParameters),
        ])
    }
}
