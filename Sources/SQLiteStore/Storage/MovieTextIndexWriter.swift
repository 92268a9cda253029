import MoviesData

/// Keeps the local search index (`MovieTextIndexSchema`) in step with one response, inside the
/// caller's write transaction: the response's movies are upserted (their FTS rows change only
/// when their text does) and become its sources; movies it no longer lists lose it as a source,
/// and leave the index when no other response lists them.
enum MovieTextIndexWriter {
    /// Makes `movies` the indexed movies of the response stored under `key` (`[]`: none).
    static func index(_ movies: [IndexedMovie], forKey key: String, in connection: SQLiteConnection) throws {
        var listed = Set<Int64>()
        for movie in movies {
            try run("""
                INSERT INTO movie_text (movie_id, language, title, original_title, overview, popularity, summary, fetched_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (movie_id, language) DO UPDATE SET
                    title = excluded.title, original_title = excluded.original_title, overview = excluded.overview,
                    popularity = excluded.popularity, summary = excluded.summary, fetched_at = excluded.fetched_at
                WHERE excluded.fetched_at >= movie_text.fetched_at
                """, [
                    .integer(Int64(movie.movieID)), .text(movie.language), .text(movie.title), .text(movie.originalTitle),
                    .text(movie.overview), .real(movie.popularity), .blob(movie.summary), .date(movie.fetchedAt),
                ], in: connection)
            let found = try connection.prepareReused(
                "SELECT id FROM movie_text WHERE movie_id = ? AND language = ?", [.integer(Int64(movie.movieID)), .text(movie.language)])
            guard try found.step() else { continue }
            let id = found.int64(at: 0)
            listed.insert(id)
            try run("INSERT OR IGNORE INTO movie_sources (key, movie) VALUES (?, ?)", [.text(key), .integer(id)], in: connection)
        }
        var dropped: [Int64] = []
        do {
            let sources = try connection.prepareReused("SELECT movie FROM movie_sources WHERE key = ?", [.text(key)])
            while try sources.step() {
                let movie = sources.int64(at: 0)
                if !listed.contains(movie) { dropped.append(movie) }
            }
        }
        for movie in dropped {
            try run("DELETE FROM movie_sources WHERE key = ? AND movie = ?", [.text(key), .integer(movie)], in: connection)
        }
    }

    private static func run(_ sql: String, _ values: [SQLiteValue], in connection: SQLiteConnection) throws {
        let statement = try connection.prepareReused(sql, values)
        while try statement.step() {}
    }
}
