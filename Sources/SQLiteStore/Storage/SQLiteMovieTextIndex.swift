import FoundationEssentials
import MoviesData

/// `MovieTextIndex` in SQLite FTS5 (`MovieTextIndexSchema`), read from the store's reader pool.
///
/// A query is matched, in turn, until one finds something:
/// 1. by words, each a prefix (`"amel"*`), diacritics and case folded (`movie_words`), ranked by
///    bm25 with the title weighted above the original title above the overview, then popularity;
/// 2. for 3 or more characters, as a substring of a title (`movie_trigrams`): scripts without
///    spaces, where a "word" is a whole title;
/// 3. for 1 or 2 characters, by `LIKE` over the titles in `movie_text` (the trigram index cannot
///    match them, and a `LIKE` of short non-ASCII text on an FTS5 table wrongly finds nothing).
public final class SQLiteMovieTextIndex: MovieTextIndex {
    private let store: SQLiteStore

    /// Creates the index over `store`'s cache database.
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// See `MovieTextIndex.search`.
    public func search(_ query: LocalSearchQuery) async throws -> LocalMatches {
        try await store.read { connection in
            try Self.search(query, in: connection)
        }
    }

    static func search(_ query: LocalSearchQuery, in connection: SQLiteConnection) throws -> LocalMatches {
        let text = SearchText.folded(query.text.trimmingCharacters(in: .whitespacesAndNewlines))
        let limit: [SQLiteValue] = [.integer(Int64(query.pageSize)), .integer(Int64((query.page - 1) * query.pageSize))]
        let words = Self.words(of: text)
        if !words.isEmpty {
            let match = words.map { "\"\($0)\"*" }.joined(separator: " ")
            let found = try matches(
                count: "SELECT count(*) FROM movie_words JOIN movie_text ON movie_text.id = movie_words.rowid WHERE movie_words MATCH ?1 AND language = ?2",
                page: """
                    SELECT summary, fetched_at FROM movie_words JOIN movie_text ON movie_text.id = movie_words.rowid
                    WHERE movie_words MATCH ?1 AND language = ?2
                    ORDER BY bm25(movie_words, 10.0, 5.0, 1.0), popularity DESC, movie_id LIMIT ?3 OFFSET ?4
                    """,
                [.text(match), .text(query.language)], limit: limit, in: connection)
            if found.total > 0 { return found }
        }
        let characters = text.filter { !$0.isWhitespace }.count
        if characters >= 3 {
            let phrase = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return try matches(
                count: "SELECT count(*) FROM movie_trigrams JOIN movie_text ON movie_text.id = movie_trigrams.rowid WHERE movie_trigrams MATCH ?1 AND language = ?2",
                page: """
                    SELECT summary, fetched_at FROM movie_trigrams JOIN movie_text ON movie_text.id = movie_trigrams.rowid
                    WHERE movie_trigrams MATCH ?1 AND language = ?2
                    ORDER BY bm25(movie_trigrams, 10.0, 5.0), popularity DESC, movie_id LIMIT ?3 OFFSET ?4
                    """,
                [.text(phrase), .text(query.language)], limit: limit, in: connection)
        }
        guard characters > 0 else { return LocalMatches(total: 0, movies: []) }
        let pattern = "%" + Self.escapedForLike(text) + "%"
        return try matches(
            count: "SELECT count(*) FROM movie_text WHERE (title LIKE ?1 ESCAPE '\\' OR original_title LIKE ?1 ESCAPE '\\') AND language = ?2",
            page: """
                SELECT summary, fetched_at FROM movie_text
                WHERE (title LIKE ?1 ESCAPE '\\' OR original_title LIKE ?1 ESCAPE '\\') AND language = ?2
                ORDER BY popularity DESC, movie_id LIMIT ?3 OFFSET ?4
                """,
            [.text(pattern), .text(query.language)], limit: limit, in: connection)
    }

    /// The query's words as `unicode61` splits them: runs of letters and digits.
    static func words(of text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func escapedForLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    private static func matches(
        count: String, page: String, _ values: [SQLiteValue], limit: [SQLiteValue], in connection: SQLiteConnection
    ) throws -> LocalMatches {
        let total: Int64
        do {
            let counted = try connection.prepareReused(count, values)
            total = try counted.step() ? counted.int64(at: 0) : 0
        }
        guard total > 0 else { return LocalMatches(total: 0, movies: []) }
        let rows = try connection.prepareReused(page, values + limit)
        var movies: [LocalMatches.Match] = []
        while try rows.step() {
            movies.append(LocalMatches.Match(summary: rows.blob(at: 0), fetchedAt: Date(timeIntervalSince1970: rows.double(at: 1))))
        }
        return LocalMatches(total: Int(total), movies: movies)
    }
}
