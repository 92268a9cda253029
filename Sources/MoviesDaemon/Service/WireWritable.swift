import MoviesDomain

/// A reply value that `WireWriter` writes byte for byte as `WireCoding.makeEncoder()` would: the
/// types of the cached `Search` answer. Members are written in `JSONEncoder`'s sorted-key order and
/// `nil` optionals are left out, as the synthesized `Codable` conformances do.
protocol WireWritable {
    /// Writes the value (a failure in `writer` means: encode with `JSONEncoder` instead).
    func write(to writer: inout WireWriter)

    /// About how many bytes the value takes, to size the buffer once.
    var wireSizeHint: Int { get }
}

extension WireWritable {
    var wireSizeHint: Int { 256 }

    /// The value's wire bytes, or `nil` when only `JSONEncoder` writes it faithfully.
    func wireBytes() -> [UInt8]? {
        var writer = WireWriter(capacity: wireSizeHint)
        write(to: &writer)
        return writer.failed ? nil : writer.bytes
    }
}

extension Freshness: WireWritable {
    func write(to writer: inout WireWriter) {
        writer.object { writer in
            writer.key("ageSeconds"); writer.int(ageSeconds)
            writer.key("fetchedAt"); writer.date(fetchedAt)
            writer.key("origin"); writer.string(origin.rawValue)
            if let remoteError { writer.key("remoteError"); writer.string(remoteError) }
            writer.key("stale"); writer.bool(stale)
            if let storageFault { writer.key("storageFault"); writer.string(storageFault.rawValue) }
            if let stored { writer.key("stored"); writer.bool(stored) }
        }
    }
}

extension MoviesPage: WireWritable {
    var wireSizeHint: Int { 96 + 640 * movies.count }

    func write(to writer: inout WireWriter) {
        writer.object { writer in
            writer.key("movies"); writer.array(movies) { writer, movie in movie.write(to: &writer) }
            writer.key("page"); writer.int(page)
            writer.key("totalPages"); writer.int(totalPages)
            writer.key("totalResults"); writer.int(totalResults)
        }
    }
}

extension Movie: WireWritable {
    func write(to writer: inout WireWriter) {
        writer.object { writer in
            writer.key("id"); writer.int(id)
            if let originalLanguage { writer.key("originalLanguage"); writer.string(originalLanguage) }
            if let originalTitle { writer.key("originalTitle"); writer.string(originalTitle) }
            if let overview { writer.key("overview"); writer.string(overview) }
            if let posterPath { writer.key("posterPath"); writer.string(posterPath) }
            if let releaseDate { writer.key("releaseDate"); writer.string(releaseDate) }
            writer.key("title"); writer.string(title)
            if let voteAverage { writer.key("voteAverage"); writer.double(voteAverage) }
        }
    }
}
