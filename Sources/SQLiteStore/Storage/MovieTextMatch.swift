import FoundationEssentials
import MoviesData

/// One FTS5 match over the local search index (`movie_words` or `movie_trigrams`), in one
/// language: its count and its pages, best first or newest first. The SQL for each is built here
/// from fixed names; the match expression and the language are always bound parameters.
struct MovieTextMatch {
    /// A matching row of `movie_text`, its summary not read yet (`MovieIndexing.movie`).
    typealias Row = (id: Int64, movieID: Int, title: String, summary: Data, summaryVersion: Int?, fetchedAt: Date)

    /// The columns `rows(_:)` reads, in its order.
    static let columns = "movie_text.id, movie_text.movie_id, movie_text.title, movie_text.summary, movie_text.summary_version, movie_text.fetched_at"

    /// The FTS5 table.
    var table: String
    /// bm25's column weights for `table`.
    var weights: String
    /// The FTS5 query expression.
    var expression: String
    var language: String
    /// Whether rows in other languages must be filtered out (a join per match), or every
    /// indexed movie is in `language` and FTS5 answers alone.
    var filtersLanguage: Bool

    private var values: [SQLiteValue] { filtersLanguage ? [.text(expression), .text(language)] : [.text(expression)] }
    private var matching: String {
        filtersLanguage
            ? "\(table) JOIN movie_text ON movie_text.id = \(table).rowid WHERE \(table) MATCH ?1 AND language = ?2"
            : "\(table) WHERE \(table) MATCH ?1"
    }
    private var limitParameters: String { filtersLanguage ? "?3 OFFSET ?4" : "?2 OFFSET ?3" }

    /// The same match restricted to `columns` (`{title original_title}`).
    func only(_ columns: String) -> MovieTextMatch {
        var restricted = self
        restricted.expression = "\(columns): (\(expression))"
        return restricted
    }

    /// The same match without what `other` matches.
    func excluding(_ other: MovieTextMatch) -> MovieTextMatch {
        var rest = self
        rest.expression = "(\(expression)) NOT \(other.expression)"
        return rest
    }

    /// How many movies match, counting no further than `cap` (counting is cheap, but not free).
    func count(upTo cap: Int, in connection: SQLiteConnection) throws -> Int {
        try Self.count(matching, values, upTo: cap, in: connection)
    }

    /// How many rows `FROM matching` (a table and its `WHERE`) selects, counting no further than `cap`.
    static func count(_ matching: String, _ values: [SQLiteValue], upTo cap: Int, in connection: SQLiteConnection) throws -> Int {
        // The cap is bound, so one statement serves every cap.
        let statement = try connection.prepare(
            "SELECT count(*) FROM (SELECT 1 FROM \(matching) LIMIT ?\(values.count + 1))", values + [.integer(Int64(cap))])
        return try statement.step() ? Int(statement.int64(at: 0)) : 0
    }

    /// A page of matches ranked by bm25, then popularity. Every match is scored: for at most a
    /// few thousand matches (about 1 µs each).
    func ranked(limit: Int, offset: Int, in connection: SQLiteConnection) throws -> [Row] {
        let sql = filtersLanguage
            ? "SELECT \(Self.columns) FROM \(matching) ORDER BY bm25(\(table), \(weights)), popularity DESC, movie_id LIMIT \(limitParameters)"
            : """
                SELECT \(Self.columns) FROM (
                    SELECT rowid AS id, rank FROM \(matching) AND rank MATCH 'bm25(\(weights))' ORDER BY rank LIMIT \(limitParameters)
                ) AS hit JOIN movie_text USING (id)
                ORDER BY hit.rank, popularity DESC, movie_id
                """
        return try rows(sql, limit: limit, offset: offset, in: connection)
    }

    /// A page of matches, the most recently indexed first: no scoring, so as cheap for a word
    /// in every movie as for a rare one.
    func newest(limit: Int, offset: Int, in connection: SQLiteConnection) throws -> [Row] {
        let sql = filtersLanguage
            ? "SELECT \(Self.columns) FROM \(matching) ORDER BY \(table).rowid DESC LIMIT \(limitParameters)"
            : """
                SELECT \(Self.columns) FROM (SELECT rowid AS id FROM \(matching) ORDER BY rowid DESC LIMIT \(limitParameters))
                JOIN movie_text USING (id) ORDER BY id DESC
                """
        return try rows(sql, limit: limit, offset: offset, in: connection)
    }

    private func rows(_ sql: String, limit: Int, offset: Int, in connection: SQLiteConnection) throws -> [Row] {
        guard limit > 0 else { return [] }
        return try Self.rows(connection.prepare(sql, values + [.integer(Int64(limit)), .integer(Int64(offset))]))
    }

    /// The rows a statement selecting `columns` yields.
    static func rows(_ statement: SQLiteStatement) throws -> [Row] {
        var rows: [Row] = []
        while try statement.step() {
            rows.append((
                statement.int64(at: 0), Int(statement.int64(at: 1)), statement.text(at: 2) ?? "", statement.blob(at: 3),
                statement.isNull(at: 4) ? nil : Int(statement.int64(at: 4)), Date(timeIntervalSince1970: statement.double(at: 5))))
        }
        return rows
    }
}
