import MoviesDomain
import Varlink

extension MoviesError {
    /// The `io.moviesd.Movies` error reply for this domain error (stable names, one sentence).
    func varlinkError(parameter: String = "parameters") -> VarlinkError {
        let interface = MoviesInterface.name
        switch code {
        case .invalidArgument:
            return VarlinkError(name: "\(interface).InvalidArgument", parameters: ["parameter": .string(parameter), "reason": .string(message)])
        case .notCached:
            return VarlinkError(name: "\(interface).NotCached", parameters: ["reason": .string(message)])
        case .notFound:
            // `id` is 0 when the missing thing is not a movie (a poster, a watchlist): `reason` says what.
            return VarlinkError(name: "\(interface).NotFound", parameters: ["id": .int(Int64(movieID ?? 0)), "reason": .string(message)])
        case .remoteRejected:
            var parameters: [String: JSONValue] = ["httpStatus": .int(Int64(httpStatus ?? 0)), "message": .string(message)]
            if let tmdbCode { parameters["tmdbCode"] = .int(Int64(tmdbCode)) }
            return VarlinkError(name: "\(interface).RemoteRejected", parameters: parameters)
        case .storage:
            var parameters: [String: JSONValue] = ["reason": .string(message)]
            if let storageFault { parameters["fault"] = .string(storageFault.rawValue) }
            return VarlinkError(name: "\(interface).StorageFailure", parameters: parameters)
        case .cancelled:
            return VarlinkError(name: "\(interface).Timeout", parameters: ["seconds": .int(0)])
        case .notSignedIn:
            return VarlinkError(name: "\(interface).NotSignedIn", parameters: ["reason": .string(message)])
        case .permissionDenied:
            return VarlinkError.permissionDenied
        case .quotaExceeded:
            let quota = quota ?? ("", 0)
            return VarlinkError(name: "\(interface).QuotaExceeded", parameters: [
                "limit": .string(quota.name), "maximum": .int(Int64(quota.maximum)), "reason": .string(message),
            ])
        default:
            // remoteUnavailable, invalidResponse and anything new: TMDB could not give a usable answer.
            var parameters: [String: JSONValue] = ["reason": .string(message)]
            if let retryAfterSeconds { parameters["retryAfterSeconds"] = .int(Int64(retryAfterSeconds)) }
            return VarlinkError(name: "\(interface).RemoteUnavailable", parameters: parameters)
        }
    }
}

extension VarlinkError {
    /// The error reply for any error thrown below the service: domain errors keep their meaning,
    /// anything else is reported as a storage failure without internal detail.
    static func from(_ error: any Error, parameter: String = "parameters") -> VarlinkError {
        if let error = error as? VarlinkError { return error }
        if let error = error as? MoviesError { return error.varlinkError(parameter: parameter) }
        if error is CancellationError { return MoviesError(code: .cancelled, message: "the call was cancelled").varlinkError() }
        // A storage adapter's error (SQLiteError) says its fault; anything else is reported as an
        // unavailable store, named by type only.
        return MoviesError.storage(wrapping: error).varlinkError(parameter: parameter)
    }

    /// The error sent when a call exceeds the per-call deadline.
    static func timeout(seconds: Int) -> VarlinkError {
        VarlinkError(name: "\(MoviesInterface.name).Timeout", parameters: ["seconds": .int(Int64(seconds))])
    }
}
