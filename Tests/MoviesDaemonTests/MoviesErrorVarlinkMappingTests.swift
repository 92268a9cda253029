import MoviesDomain
import Testing
@testable import MoviesDaemon
import Varlink

/// Domain errors as `io.moviesd.Movies` error replies.
@Suite struct MoviesErrorVarlinkMappingTests {
    /// The declared errors: name → (field, optional?) from the interface description.
    static var declaredErrors: [String: [String: Bool]] {
        var errors: [String: [String: Bool]] = [:]
        for line in MoviesInterface.description.split(separator: "\n") where line.hasPrefix("error ") {
            let rest = line.dropFirst("error ".count)
            guard let open = rest.firstIndex(of: "("), let close = rest.lastIndex(of: ")") else { continue }
            let name = rest[..<open].trimmingCharacters(in: .whitespaces)
            var fields: [String: Bool] = [:]
            for field in rest[rest.index(after: open)..<close].split(separator: ",") {
                let parts = field.split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { continue }
                fields[parts[0].trimmingCharacters(in: .whitespaces)] = parts[1].trimmingCharacters(in: .whitespaces).hasPrefix("?")
            }
            errors["\(MoviesInterface.name).\(name)"] = fields
        }
        return errors
    }

    /// Every code, with every optional detail set.
    static let everyError: [MoviesError] = [
        MoviesError.invalidArgument("page must be between 1 and 500"),
        MoviesError.notCached("nothing cached"),
        MoviesError(code: .notFound, message: "no movie", httpStatus: 404, tmdbCode: 34, movieID: 603),
        MoviesError(code: .notFound, message: "no results"),
        MoviesError(code: .remoteRejected, message: "invalid key", httpStatus: 401, tmdbCode: 7),
        MoviesError(code: .remoteRejected, message: "bad request", httpStatus: 422),
        MoviesError(code: .remoteUnavailable, message: "offline", retryAfterSeconds: 30),
        MoviesError(code: .remoteUnavailable, message: "timed out"),
        MoviesError(code: .invalidResponse, message: "undecodable"),
        MoviesError(code: .storage, message: "disk full"),
        MoviesError(code: .cancelled, message: "cancelled"),
        MoviesError(code: MoviesError.Code(rawValue: "brand_new"), message: "something new"),
    ]

    @Test func everyMappedErrorIsDeclaredWithItsFields() throws {
        let declared = MoviesErrorVarlinkMappingTests.declaredErrors
        #expect(declared.count >= 7)
        for error in MoviesErrorVarlinkMappingTests.everyError {
            let reply = error.varlinkError(parameter: "page")
            let fields = try #require(declared[reply.name], "\(reply.name) is not declared")
            #expect(Set(reply.parameters.keys).isSubset(of: Set(fields.keys)), "\(reply)")
            for (field, optional) in fields where !optional {
                #expect(reply.parameters[field] != nil, "\(reply.name) lacks \(field)")
            }
        }
    }

    @Test func invalidArgumentNamesTheParameterAndTheReason() {
        let error = MoviesError.invalidArgument("page must be between 1 and 500, got 0")
        #expect(error.varlinkError(parameter: "page") == VarlinkError(
            name: "io.moviesd.Movies.InvalidArgument",
            parameters: ["parameter": .string("page"), "reason": .string("page must be between 1 and 500, got 0")]))
        #expect(error.varlinkError().parameters["parameter"] == .string("parameters"))
    }

    @Test func notCachedAndStorageCarryTheReason() {
        #expect(MoviesError.notCached("nothing cached").varlinkError() == VarlinkError(
            name: "io.moviesd.Movies.NotCached", parameters: ["reason": .string("nothing cached")]))
        #expect(MoviesError(code: .storage, message: "disk full").varlinkError() == VarlinkError(
            name: "io.moviesd.Movies.StorageFailure", parameters: ["reason": .string("disk full")]))
    }

    @Test func notFoundCarriesTheMovieID() {
        let error = MoviesError(code: .notFound, message: "no movie", httpStatus: 404, tmdbCode: 34, movieID: 603)
        #expect(error.varlinkError() == VarlinkError(name: "io.moviesd.Movies.NotFound", parameters: ["id": .int(603), "reason": .string("no movie")]))
        // Not a movie: id 0 and the reason says what is missing (the CLI once said "no movie with id 0").
        #expect(MoviesError(code: .notFound, message: "TMDB has no poster at /x.jpg").varlinkError().parameters
            == ["id": .int(0), "reason": .string("TMDB has no poster at /x.jpg")])
    }

    @Test func remoteRejectedCarriesTheHTTPStatusAndTMDBCode() {
        let rejected = MoviesError(code: .remoteRejected, message: "invalid key", httpStatus: 401, tmdbCode: 7)
        #expect(rejected.varlinkError() == VarlinkError(
            name: "io.moviesd.Movies.RemoteRejected",
            parameters: ["httpStatus": .int(401), "tmdbCode": .int(7), "message": .string("invalid key")]))
        let withoutCode = MoviesError(code: .remoteRejected, message: "bad request", httpStatus: 422)
        #expect(withoutCode.varlinkError().parameters == ["httpStatus": .int(422), "message": .string("bad request")])
    }

    @Test func unavailableInvalidResponseAndNewCodesAreRemoteUnavailable() {
        let offline = MoviesError(code: .remoteUnavailable, message: "offline", retryAfterSeconds: 30)
        #expect(offline.varlinkError() == VarlinkError(
            name: "io.moviesd.Movies.RemoteUnavailable", parameters: ["reason": .string("offline"), "retryAfterSeconds": .int(30)]))
        #expect(MoviesError(code: .remoteUnavailable, message: "timed out").varlinkError().parameters == ["reason": .string("timed out")])
        #expect(MoviesError(code: .invalidResponse, message: "undecodable").varlinkError().name == "io.moviesd.Movies.RemoteUnavailable")
        #expect(MoviesError(code: MoviesError.Code(rawValue: "brand_new"), message: "new").varlinkError().name == "io.moviesd.Movies.RemoteUnavailable")
    }

    @Test func cancellationIsATimeout() {
        #expect(MoviesError(code: .cancelled, message: "cancelled").varlinkError() == VarlinkError(
            name: "io.moviesd.Movies.Timeout", parameters: ["seconds": .int(0)]))
        #expect(VarlinkError.from(CancellationError()).name == "io.moviesd.Movies.Timeout")
        #expect(VarlinkError.timeout(seconds: 60) == VarlinkError(name: "io.moviesd.Movies.Timeout", parameters: ["seconds": .int(60)]))
    }

    @Test func fromKeepsVarlinkAndDomainErrorsAndHidesOthers() {
        #expect(VarlinkError.from(VarlinkError.permissionDenied) == .permissionDenied)
        #expect(VarlinkError.from(MoviesError.invalidArgument("bad"), parameter: "id").parameters["parameter"] == .string("id"))
        struct SecretFailure: Error, CustomStringConvertible { var description: String { "token=abc123" } }
        let hidden = VarlinkError.from(SecretFailure())
        #expect(hidden.name == "io.moviesd.Movies.StorageFailure")
        #expect(!hidden.description.contains("abc123"))
    }
}
