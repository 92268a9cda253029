import FoundationEssentials
import MoviesData

/// `MovieTextIndex` in SQLite FTS5 (`MovieTextIndexSchema`), read from the store's reader pool.
///
/// A query is matched, in turn, until one finds something:
/// 1. by words, the last also as a prefix (`"la" "vita" "bel"*`), diacritics and case folded
///    (`movie_words`), ranked by bm25 with the title weighted above the original title above the
///    overview, then popularity;
/// 2. for 3 or more characters of a script without spaces (CJK...), as a substring of a title
///    (`movie_trigrams`, which holds only such titles): there a "word" is a whole title;
/// 3. for 1 or 2 characters of a script without spaces, by `LIKE` over the titles in such
///    scripts in `movie_text` (the trigram index cannot match them, and a `LIKE` of short
///    non-ASCII text on an FTS5 table wrongly finds nothing).
///
/// Bounded for words in nearly every movie ("the", "love"): matches are counted up to
/// `matchCountLimit` (100 pages of 20: counting an AND of such words costs about 1 µs a match),
/// and ranked by bm25 only while there are at most `rankedMatchLimit` of them. Beyond, title matches come first (ranked while few enough),
/// then the rest, each most recently indexed first.
public final class SQLiteMovieTextIndex: MovieTextIndex {
    /// The most matches counted (`LocalMatches.total` stops there).
    static let matchCountLimit = 2_000
    /// The most matches scored by bm25 for one page (about 1 µs each).
    static let rankedMatchLimit = 1_500

    private let store: SQLiteStore
    private let upkeep: MovieIndexUpkeep

    /// Creates the index over `store`'s cache database.
    /// - Parameter upkeep: what indexes the queued responses (the daemon's service); one of its
    ///   own when `nil`.
    public init(store: SQLiteStore, upkeep: MovieIndexUpkeep? = nil) {
        self.store = store
        self.upkeep = upkeep ?? MovieIndexUpkeep(store: store)
    }

    /// See `MovieTextIndex.search`. Indexes the queued responses first; when that fails (a full
    /// disk), the index answers as it stands and the upkeep reports the failure. Each movie is
    /// read from its summary, or from the stored responses when the summary is of another version
    /// or does not decode (`MovieIndexing.movie`); those are then queued to be indexed again.
    public func search(_ query: LocalSearchQuery) async throws -> LocalMatches {
        await upkeep.catchUpReporting()
        let (matches, rederived) = try await store.read { connection in
            let (total, rows) = try Self.search(query, in: connection)
            var rederived: [Int64] = []
            let movies = try rows.map { row in
                let read = try MovieIndexing.movie(id: row.movieID, title: row.title, summary: row.summary, version: row.summaryVersion) {
                    try Self.sources(of: row.id, in: connection)
                }
                if read.rederived { rederived.append(row.id) }
                return LocalMatches.Match(movie: read.movie, fetchedAt: row.fetchedAt)
            }
            return (LocalMatches(total: total, movies: movies), rederived)
        }
        if !rederived.isEmpty {
            // Failing that (a full disk), the next search reads them from the responses again.
            _ = try? await store.writeCountingNothing { connection in try MovieTextIndexWriter.requeue(rederived, in: connection) }
            upkeep.wake()
        }
        return matches
    }

    /// The stored responses that list the indexed movie `row`, the newest first.
    private static func sources(of row: Int64, in connection: SQLiteConnection) throws -> [StoredResponse] {
        let keys = try connection.prepare(
            "SELECT key FROM movie_sources JOIN responses USING (key) WHERE movie = ? ORDER BY responses.fetched_at DESC", [.integer(row)])
        var responses: [StoredResponse] = []
        while try keys.step() {
            if let response = try ResponseRow.load(key: keys.text(at: 0) ?? "", from: connection, skippingUnknown: true) { responses.append(response) }
        }
        return responses
    }

    static func search(_ query: LocalSearchQuery, in connection: SQLiteConnection) throws -> (total: Int, rows: [MovieTextMatch.Row]) {
        let text = SearchText.folded(query.text.trimmingCharacters(in: .whitespacesAndNewlines))
        let offset = (query.page - 1) * query.pageSize
        let filtersLanguage = try Self.holdsOtherLanguages(than: query.language, connection)
        let words = try Self.selective(Self.words(of: text), connection)
        if !words.isEmpty {
            // Whole words, and the last one also as a prefix of 2 or more letters ("the matri"
            // finds "The Matrix"): expanding every word, or a single letter, would read the
            // postings of every word they begin (the prefix indexes hold 2 and 3 letters).
            let last = words[words.count - 1]
            let expression = (words.dropLast().map { "\"\($0)\"" } + ["\"\(last)\"" + (last.count >= 2 ? "*" : "")]).joined(separator: " ")
            let match = MovieTextMatch(table: "movie_words", weights: "10.0, 5.0, 1.0", expression: expression, language: query.language, filtersLanguage: filtersLanguage)
            let found = try Self.page(of: match, titles: "{title original_title}", query, offset: offset, connection)
            if found.total > 0 { return found }
        }
        let characters = text.filter { !$0.isWhitespace }.count
        guard characters > 0, SearchText.hasUnspacedScript(text) else { return (0, []) }
        if characters >= 3 {
            let phrase = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let match = MovieTextMatch(table: "movie_trigrams", weights: "10.0, 5.0", expression: phrase, language: query.language, filtersLanguage: filtersLanguage)
            return try Self.page(of: match, titles: nil, query, offset: offset, connection)
        }
        // One or two characters: only titles in scripts without spaces are scanned.
        let pattern: [SQLiteValue] = [.text("%" + Self.escapedForLike(text) + "%"), .text(query.language)]
        let matching = "movie_text INDEXED BY movie_text_unspaced WHERE unspaced = 1 AND language = ?2 AND (title LIKE ?1 ESCAPE '\\' OR original_title LIKE ?1 ESCAPE '\\')"
        let total = try MovieTextMatch.count(matching, pattern, upTo: matchCountLimit, in: connection)
        guard total > 0 else { return (0, []) }
        let rows = try connection.prepare(
            "SELECT \(MovieTextMatch.columns) FROM \(matching) ORDER BY popularity DESC, movie_id LIMIT ?3 OFFSET ?4",
            pattern + [.integer(Int64(query.pageSize)), .integer(Int64(offset))])
        return (total, try MovieTextMatch.rows(rows))
    }

    /// The page of `match` at `offset`: ranked while the matches are few; otherwise those in
    /// `titles` first (ranked while few enough), then the rest, newest first.
    private static func page(
        of match: MovieTextMatch, titles: String?, _ query: LocalSearchQuery, offset: Int, _ connection: SQLiteConnection
    ) throws -> (total: Int, rows: [MovieTextMatch.Row]) {
        let total = try match.count(upTo: matchCountLimit, in: connection)
        guard total > 0, offset < total else { return (total, []) }
        let size = min(query.pageSize, total - offset)
        // (A count that reached its cap may stand for many more matches, all of which ranking scores.)
        guard total >= matchCountLimit || total > rankedMatchLimit, let titles else {
            return (total, try match.ranked(limit: size, offset: offset, in: connection))
        }
        let inTitles = match.only(titles)
        let titleCount = try inTitles.count(upTo: matchCountLimit, in: connection)
        var movies: [MovieTextMatch.Row] = []
        if offset < titleCount {
            let count = min(size, titleCount - offset)
            movies = titleCount < matchCountLimit && titleCount <= rankedMatchLimit
                ? try inTitles.ranked(limit: count, offset: offset, in: connection)
                : try inTitles.newest(limit: count, offset: offset, in: connection)
        }
        if movies.count < size {
            movies += try match.excluding(inTitles).newest(limit: size - movies.count, offset: max(0, offset - titleCount), in: connection)
        }
        return (total, movies)
    }

    /// `words` without those in more than a fifth of the indexed movies ("the", "a", "of", "love"
    /// in English), when others remain: matching them barely narrows the answer and costs the
    /// most. When every word is that common, the last one (the one being typed) is kept.
    static func selective(_ words: [String], _ connection: SQLiteConnection) throws -> [String] {
        guard words.count > 1 else { return words }
        // The highest id stands for the number of indexed rows: ids are assigned in order.
        let rows = try connection.prepare("SELECT max(id) FROM movie_text")
        let indexed = try rows.step() ? Int(rows.int64(at: 0)) : 0
        let common = max(500, indexed / 5)
        var kept: [String] = []
        for (position, word) in words.enumerated() {
            // Counted no further than the threshold (FTS5 stores no document counts: its
            // vocabulary table counts by reading the whole list, 3 ms for "the" in 100,000 movies).
            let expression = "\"\(word)\"" + (position == words.count - 1 && word.count >= 2 ? "*" : "")
            let movies = try MovieTextMatch.count("movie_words WHERE movie_words MATCH ?1", [.text(expression)], upTo: common + 1, in: connection)
            if movies <= common { kept.append(word) }
        }
        return kept.isEmpty ? [words[words.count - 1]] : kept
    }

    /// Whether the index holds movies in a language other than `language` (both ends of the
    /// language index: two lookups, whatever its size).
    private static func holdsOtherLanguages(than language: String, _ connection: SQLiteConnection) throws -> Bool {
        let ends = try connection.prepare("""
            SELECT (SELECT language FROM movie_text ORDER BY language LIMIT 1), (SELECT language FROM movie_text ORDER BY language DESC LIMIT 1)
            """)
        guard try ends.step(), !ends.isNull(at: 0) else { return false }
        return ends.text(at: 0) != language || ends.text(at: 1) != language
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
}
