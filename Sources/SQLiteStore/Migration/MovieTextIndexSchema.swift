import MoviesData

/// The local search index's tables (cache schema 5; the queue, 7). A response's index rows follow
/// it through a queue, like PostgreSQL's GIN pending list: the transaction that stores a search
/// page or a movie's details queues its key (`movie_index_queue`, by trigger, whoever writes), and
/// `MovieIndexUpkeep` indexes the queued responses right after, several per transaction, as they
/// are stored then. A search first indexes what is queued, so it sees every response stored before
/// it; a queue left by a crash is indexed at the next start. Deleting a response takes its movies
/// out of the index in the same transaction.
///
/// - `movie_text`: one row per movie and language, its text, popularity and summary, and when it
///   was fetched. The external content of both FTS5 tables, kept in step by triggers. `unspaced`
///   marks titles in scripts without spaces (`SearchText.hasUnspacedScript`): a query of one or
///   two such characters scans only those rows' titles (`movie_text_unspaced` covers them).
/// - `movie_words`: FTS5 `unicode61 remove_diacritics 2` with 2- and 3-letter prefix indexes over
///   title, original title and overview ("amelie" finds "Amélie", "stuuut" finds "Stuuût").
/// - `movie_trigrams`: FTS5 `trigram` over the titles in scripts without spaces (CJK...), which
///   `unicode61` cannot split into words, for substrings of 3 or more characters. Only those
///   rows: Latin titles are found by their words, and trigrams of every title would double the
///   cost of a write. Contentless (its rows are a subset of `movie_text`'s), kept by the same
///   triggers with the `'delete'` command and the old values.
/// - `movie_index_digests`: a digest of what each response put in the index, so that the same
///   movies fetched again cost one comparison instead of a write per movie.
/// - `movie_sources`: which cached responses list which movie. Deleting a response (purge,
///   eviction) deletes its sources at once, a newer page without the movie when it is indexed; a movie no response lists
///   any more leaves the index (triggers), so the index holds exactly the movies the cache holds.
enum MovieTextIndexSchema {
    static let sql = """
        CREATE TABLE movie_text (
            id INTEGER PRIMARY KEY,
            movie_id INT NOT NULL,
            language TEXT NOT NULL,
            title TEXT NOT NULL,
            original_title TEXT NOT NULL,
            overview TEXT NOT NULL,
            popularity REAL NOT NULL,
            summary BLOB NOT NULL,
            fetched_at REAL NOT NULL,
            unspaced INT NOT NULL,
            UNIQUE (movie_id, language)
        );
        CREATE INDEX movie_text_language ON movie_text(language);
        CREATE INDEX movie_text_unspaced ON movie_text(language, title, original_title, popularity) WHERE unspaced = 1;
        CREATE TABLE movie_sources (
            key TEXT NOT NULL,
            movie INT NOT NULL,
            PRIMARY KEY (key, movie)
        ) WITHOUT ROWID;
        CREATE INDEX movie_sources_movie ON movie_sources(movie);
        CREATE TABLE movie_index_digests (
            key TEXT PRIMARY KEY NOT NULL,
            digest INT NOT NULL
        ) WITHOUT ROWID;
        CREATE VIRTUAL TABLE movie_words USING fts5(
            title, original_title, overview, content='movie_text', content_rowid='id',
            tokenize='unicode61 remove_diacritics 2', prefix='2 3'
        );
        CREATE VIRTUAL TABLE movie_trigrams USING fts5(title, original_title, content='', tokenize='trigram');
        CREATE TRIGGER movie_text_added AFTER INSERT ON movie_text BEGIN
            INSERT INTO movie_words(rowid, title, original_title, overview) VALUES (new.id, new.title, new.original_title, new.overview);
            INSERT INTO movie_trigrams(rowid, title, original_title) SELECT new.id, new.title, new.original_title WHERE new.unspaced = 1;
        END;
        CREATE TRIGGER movie_text_removed AFTER DELETE ON movie_text BEGIN
            INSERT INTO movie_words(movie_words, rowid, title, original_title, overview) VALUES ('delete', old.id, old.title, old.original_title, old.overview);
            INSERT INTO movie_trigrams(movie_trigrams, rowid, title, original_title)
            SELECT 'delete', old.id, old.title, old.original_title WHERE old.unspaced = 1;
        END;
        CREATE TRIGGER movie_text_changed AFTER UPDATE OF title, original_title, overview ON movie_text
        WHEN old.title IS NOT new.title OR old.original_title IS NOT new.original_title OR old.overview IS NOT new.overview
        BEGIN
            INSERT INTO movie_words(movie_words, rowid, title, original_title, overview) VALUES ('delete', old.id, old.title, old.original_title, old.overview);
            INSERT INTO movie_trigrams(movie_trigrams, rowid, title, original_title)
            SELECT 'delete', old.id, old.title, old.original_title WHERE old.unspaced = 1;
            INSERT INTO movie_words(rowid, title, original_title, overview) VALUES (new.id, new.title, new.original_title, new.overview);
            INSERT INTO movie_trigrams(rowid, title, original_title) SELECT new.id, new.title, new.original_title WHERE new.unspaced = 1;
        END;
        CREATE TRIGGER responses_unindexed AFTER DELETE ON responses BEGIN
            DELETE FROM movie_index_digests WHERE key = old.key;
            DELETE FROM movie_sources WHERE key = old.key;
        END;
        CREATE TRIGGER movie_sources_orphaned AFTER DELETE ON movie_sources
        WHEN NOT EXISTS (SELECT 1 FROM movie_sources WHERE movie = old.movie)
        BEGIN
            DELETE FROM movie_text WHERE id = old.movie;
        END;
        """

    /// The queue (cache schema 7): a row per search page or movie details stored (or changed,
    /// revalidated included, for its `fetched_at`), numbered in order, so that a catch-up takes
    /// the oldest first and can stop at the last one there when it started. A response stored
    /// again while queued has two rows; the second is indexed by the cheap unchanged-digest path.
    /// No index on `key`: a queue row costs one page on the write path; deleting a response scans
    /// the queue, which is empty but for what was stored in the last moments. Negative (404)
    /// entries are queued only when they replace a page, whose movies they take out.
    static let queueSQL = """
        CREATE TABLE movie_index_queue (
            seq INTEGER PRIMARY KEY,
            key TEXT NOT NULL
        );
        CREATE TRIGGER responses_queued AFTER INSERT ON responses
        WHEN new.resource IN ('search', 'movie') AND new.http_status = 200 BEGIN
            INSERT INTO movie_index_queue (key) VALUES (new.key);
        END;
        CREATE TRIGGER responses_requeued AFTER UPDATE OF body, http_status, reply, fetched_at ON responses
        WHEN new.resource IN ('search', 'movie') AND (new.http_status = 200 OR old.http_status = 200) BEGIN
            INSERT INTO movie_index_queue (key) VALUES (new.key);
        END;
        CREATE TRIGGER responses_unqueued AFTER DELETE ON responses WHEN old.resource IN ('search', 'movie') BEGIN
            DELETE FROM movie_index_queue WHERE key = old.key;
        END;
        """
}
