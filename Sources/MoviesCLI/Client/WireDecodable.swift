import FoundationEssentials
import MoviesDomain
import Varlink

/// A reply value read straight from the already parsed message, without serializing it again for
/// `JSONDecoder`: the types of the `Search` reply, which `movies search` reads on every run (a
/// third of its start-up went to `JSONDecoder` and the generic metadata it instantiates).
///
/// `init(wire:)` accepts only the exact shape the daemon writes (`WireCoding`); for anything else it
/// returns `nil` and the caller decodes with `JSONDecoder`, whose answer — a value or an error —
/// stands, so what the client accepts and how it fails never change.
protocol WireDecodable {
    /// The value in `wire`, or `nil` when `wire` is not exactly in the daemon's shape.
    init?(wire: JSONValue)
}

extension SearchReply: WireDecodable {
    init?(wire: JSONValue) {
        guard let members = wire.objectValue, let page = members["page"].flatMap(MoviesPage.init(wire:)),
              let freshness = members["freshness"].flatMap(Freshness.init(wire:)) else { return nil }
        self.init(page: page, freshness: freshness)
    }
}

extension MoviesPage: WireDecodable {
    init?(wire: JSONValue) {
        guard let members = wire.objectValue, let page = WireField.int(members["page"]),
              let totalPages = WireField.int(members["totalPages"]), let totalResults = WireField.int(members["totalResults"]),
              let items = members["movies"]?.arrayValue else { return nil }
        var movies: [Movie] = []
        movies.reserveCapacity(items.count)
        for item in items {
            guard let movie = Movie(wire: item) else { return nil }
            movies.append(movie)
        }
        self.init(page: page, totalPages: totalPages, totalResults: totalResults, movies: movies)
    }
}

extension Movie: WireDecodable {
    init?(wire: JSONValue) {
        guard let members = wire.objectValue, let id = WireField.int(members["id"]), let title = members["title"]?.stringValue,
              let originalTitle = WireField.optional(members["originalTitle"], \.stringValue),
              let overview = WireField.optional(members["overview"], \.stringValue),
              let releaseDate = WireField.optional(members["releaseDate"], \.stringValue),
              let posterPath = WireField.optional(members["posterPath"], \.stringValue),
              let voteAverage = WireField.optional(members["voteAverage"], \.doubleValue),
              let originalLanguage = WireField.optional(members["originalLanguage"], \.stringValue) else { return nil }
        self.init(
            id: id, title: title, originalTitle: originalTitle, overview: overview, releaseDate: releaseDate,
            posterPath: posterPath, voteAverage: voteAverage, originalLanguage: originalLanguage)
    }
}

extension Freshness: WireDecodable {
    init?(wire: JSONValue) {
        guard let members = wire.objectValue, let origin = members["origin"]?.stringValue.flatMap(Origin.init(rawValue:)),
              let fetchedAt = members["fetchedAt"]?.stringValue.flatMap(WireDate.parse), let ageSeconds = WireField.int(members["ageSeconds"]),
              let stale = members["stale"]?.boolValue, let remoteError = WireField.optional(members["remoteError"], \.stringValue),
              let stored = WireField.optional(members["stored"], \.boolValue),
              let fault = WireField.optional(members["storageFault"], \.stringValue) else { return nil }
        // A fault this client does not know yet is still "not stored", for the unknown reason.
        self.init(
            origin: origin, fetchedAt: fetchedAt, ageSeconds: ageSeconds, stale: stale, remoteError: remoteError,
            stored: stored, storageFault: fault.map { StorageFault(rawValue: $0) ?? .unavailable })
    }
}
