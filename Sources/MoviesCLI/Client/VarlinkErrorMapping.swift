import Varlink

/// Maps a Varlink error reply (its name and parameters) to a `ClientError`.
enum VarlinkErrorMapping {
    /// The client error for the error reply `name` with `parameters` to a call of `method`.
    static func clientError(name: String, parameters: JSONValue, method: String) -> ClientError {
        let reason = parameters["reason"]?.stringValue ?? "no reason given"
        switch name {
        case "io.moviesd.Movies.RemoteUnavailable":
            if let retry = parameters["retryAfterSeconds"]?.intValue {
                return .remoteUnavailable("\(reason) (retry in \(retry) s)")
            }
            return .remoteUnavailable(reason)
        case "io.moviesd.Movies.NotCached":
            return .notCached(reason)
        case "io.moviesd.Movies.NotFound":
            return .notFound(id: parameters["id"]?.intValue.map { Int($0) })
        case "io.moviesd.Movies.RemoteRejected":
            let message = parameters["message"]?.stringValue ?? "no message"
            let status = parameters["httpStatus"]?.intValue.map { "HTTP \($0)" } ?? "HTTP ?"
            let code = parameters["tmdbCode"]?.intValue.map { ", TMDB code \($0)" } ?? ""
            return .remoteRejected("\(message) (\(status)\(code))")
        case "io.moviesd.Movies.InvalidArgument":
            let parameter = parameters["parameter"]?.stringValue ?? "argument"
            return .invalidArgument("\(parameter): \(reason)")
        case "io.moviesd.Movies.Timeout":
            let seconds = parameters["seconds"]?.intValue.map { "\($0) s" } ?? "its deadline"
            return .other("moviesd did not finish \(method) within \(seconds); try again")
        case "io.moviesd.Movies.StorageFailure":
            return .other("moviesd's cache failed: \(reason); see the daemon's log")
        case "org.varlink.service.PermissionDenied":
            return .permissionDenied("moviesd refuses \(method) to this user")
        case "org.varlink.service.InvalidParameter":
            let parameter = parameters["parameter"]?.stringValue ?? "a parameter"
            return .invalidArgument("moviesd rejected \(parameter) of \(method)")
        case "org.varlink.service.MethodNotFound", "org.varlink.service.InterfaceNotFound", "org.varlink.service.MethodNotImplemented":
            return .other("moviesd does not support \(method) (\(name)); update moviesd")
        default:
            return .other("moviesd answered \(method) with error \(name)")
        }
    }
}
