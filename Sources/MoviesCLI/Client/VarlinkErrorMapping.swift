/// Maps a Varlink error reply (its name and parameters) to a `ClientError`. Free of Varlink types so
/// it can be tested alone: the adapter passes the parameters' string and integer members.
enum VarlinkErrorMapping {
    /// The string and integer members of an error reply's parameters.
    struct Parameters: Sendable, Hashable {
        /// String members by name.
        var strings: [String: String] = [:]
        /// Integer members by name.
        var integers: [String: Int64] = [:]

        /// The string member `key`, if present.
        subscript(string key: String) -> String? { strings[key] }
        /// The integer member `key`, if present.
        subscript(int key: String) -> Int64? { integers[key] }
    }

    /// The client error for the error reply `name` with `parameters` to a call of `method`.
    static func clientError(name: String, parameters: Parameters, method: String) -> ClientError {
        // The reason is embedded in a longer sentence: drop its own final period.
        let given = parameters[string: "reason"] ?? "no reason given"
        let reason = given.hasSuffix(".") ? String(given.dropLast()) : given
        switch name {
        case "io.moviesd.Movies.RemoteUnavailable":
            return .remoteUnavailable(reason, retryAfterSeconds: parameters[int: "retryAfterSeconds"].map { Int($0) })
        case "io.moviesd.Movies.NotCached":
            return .notCached(reason)
        case "io.moviesd.Movies.NotFound":
            if let watchlist = parameters[string: "watchlist"] { return .noSuchWatchlist(watchlist) }
            let id = parameters[int: "id"].map { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
            return .notFound(id: id, reason: parameters[string: "reason"])
        case "io.moviesd.Movies.RemoteRejected":
            let given = parameters[string: "message"] ?? "no message"
            let message = given.hasSuffix(".") ? String(given.dropLast()) : given
            // HTTP status 0: no request was made (moviesd has no credential); never show one then.
            let status = parameters[int: "httpStatus"].flatMap { $0 > 0 ? $0 : nil }
            let code = parameters[int: "tmdbCode"]
            if code == 7 || status == 401 { return .credentialProblem(message) }
            let details = [status.map { "HTTP \($0)" }, code.map { "TMDB code \($0)" }].compactMap { $0 }
            return .remoteRejected(details.isEmpty ? message : "\(message) (\(details.joined(separator: ", ")))")
        case "io.moviesd.Movies.InvalidArgument":
            let parameter = parameters[string: "parameter"] ?? "argument"
            return .invalidArgument("\(parameter): \(reason)")
        case "io.moviesd.Movies.Timeout":
            let seconds = parameters[int: "seconds"].map { "\($0) s" } ?? "its deadline"
            return .other("moviesd could not \(CallDescription.action(method)) within \(seconds); try again")
        case "io.moviesd.Movies.TooManyConnections", "org.varlink.service.TooManyConnections":
            return .tooManyConnections(reason)
        case "io.moviesd.Movies.NotSignedIn":
            return .notSignedIn(reason)
        case "io.moviesd.Movies.QuotaExceeded":
            // The reason names the [Users] setting: an administrator can raise it.
            return .other(reason)
        case "io.moviesd.Movies.StorageFailure":
            return .storageFailure(reason, fault: parameters[string: "fault"])
        case "io.moviesd.Movies.CatalogueFailed":
            // The catalogue of before is whole: say so with why.
            switch parameters[string: "code"] {
            case "export_not_found", "download_failed": return .remoteUnavailable(reason)
            case "disk_full": return .storageFailure(reason, fault: "full")
            case "storage": return .storageFailure(reason, fault: nil)
            default: return .other(reason)
            }
        case "org.varlink.service.PermissionDenied":
            return .permissionDenied("moviesd does not let this user \(CallDescription.action(method))")
        case "org.varlink.service.InvalidParameter":
            let parameter = parameters[string: "parameter"] ?? "a parameter"
            return .invalidArgument("moviesd refused \(parameter) (asked to \(CallDescription.action(method)))")
        case "org.varlink.service.MethodNotFound", "org.varlink.service.InterfaceNotFound", "org.varlink.service.MethodNotImplemented":
            return .other("this moviesd cannot \(CallDescription.action(method)): it is older than movies; update moviesd")
        default:
            return .other("moviesd could not \(CallDescription.action(method)) and sent an error this movies does not know (\(name)); are moviesd and movies the same version?")
        }
    }
}
