/// The store's schema: the numbered migrations of the moviesd database.
public enum StoreSchema {
    /// Version 1: cached responses and recent queries.
    ///
    /// `responses.key` is the PRIMARY KEY (an automatic unique index), so a lookup by key is one
    /// B-tree descent, O(log n), whatever else the table holds; the body BLOB is never part of an
    /// index. `responses_lru` serves eviction (`WHERE pinned = 0 ORDER BY last_access`) without a
    /// sort. Dates are Unix seconds (REAL).
    public static let version1 = SQLiteMigration(version: 1, name: "responses and recent queries", sql: """
        CREATE TABLE responses (
            key TEXT PRIMARY KEY NOT NULL,
            resource TEXT NOT NULL,
            body BLOB NOT NULL,
            content_type TEXT NOT NULL,
            http_status INT NOT NULL,
            fetched_at REAL NOT NULL,
            expires_at REAL NOT NULL,
            etag TEXT,
            last_modified TEXT,
            last_access REAL NOT NULL,
            size INT NOT NULL,
            pinned INT NOT NULL DEFAULT 0
        );
        CREATE INDEX responses_lru ON responses(pinned, last_access);
        CREATE TABLE recent_queries (
            canonical TEXT PRIMARY KEY NOT NULL,
            query TEXT NOT NULL,
            saved_at REAL NOT NULL
        );
        CREATE INDEX recent_queries_saved_at ON recent_queries(saved_at);
        """)

    /// Version 2: watchlists (DESIGN §4). A list's queries and movies are kept in insertion order
    /// (`position`) and go with the list (`ON DELETE CASCADE`).
    public static let version2 = SQLiteMigration(version: 2, name: "watchlists", sql: """
        CREATE TABLE watchlists (
            name TEXT PRIMARY KEY NOT NULL
        );
        CREATE TABLE watchlist_queries (
            watchlist TEXT NOT NULL REFERENCES watchlists(name) ON DELETE CASCADE,
            position INT NOT NULL,
            canonical TEXT NOT NULL,
            query TEXT NOT NULL,
            pages INT NOT NULL,
            PRIMARY KEY (watchlist, canonical)
        );
        CREATE TABLE watchlist_movies (
            watchlist TEXT NOT NULL REFERENCES watchlists(name) ON DELETE CASCADE,
            position INT NOT NULL,
            movie_id INT NOT NULL,
            PRIMARY KEY (watchlist, movie_id)
        );
        """)

    /// Every migration of the single-file schema of moviesd 0.x, in order: responses, recent
    /// queries and watchlists in one database (tests and tools that want all tables in one file).
    public static let migrations: [SQLiteMigration] = [version1, version2]

    /// The single-file schema as this moviesd writes responses into it: `migrations`, then the
    /// `reply` column and the rest of the cache's versions, then the watchlists' owners (as the state
    /// database's version 5): tests and tools that want every table in one file.
    public static let singleFileMigrations: [SQLiteMigration] = migrations + [
        SQLiteMigration(version: 3, name: replyColumn.name, apply: replyColumn.apply),
        SQLiteMigration(version: 4, name: movieIndex.name, apply: movieIndex.apply),
        SQLiteMigration(version: 5, name: changeFeed.name, apply: changeFeed.apply),
        SQLiteMigration(version: 6, name: indexQueue.name, apply: indexQueue.apply),
        SQLiteMigration(version: 7, name: replyVersion.name, apply: replyVersion.apply),
        SQLiteMigration(version: 8, name: "owners of watchlists", sql: StateSchema.watchlistOwnersSQL),
        SQLiteMigration(version: 9, name: budgetIndex.name, sql: budgetIndexSQL),
        SQLiteMigration(version: 10, name: pinOwners.name, sql: pinOwnersSQL),
        SQLiteMigration(version: 11, name: summaryVersions.name, sql: summaryVersionsSQL),
    ]

    /// Cache version 3: user data moved to the state database (`StateSchema`). Applied only after
    /// `LegacyDatabaseSplit` has copied it there (`MoviesDatabases.open` does both in that order).
    public static let version3 = SQLiteMigration(version: 3, name: "user data moved to the state database", sql: """
        DROP TABLE IF EXISTS watchlist_movies;
        DROP TABLE IF EXISTS watchlist_queries;
        DROP TABLE IF EXISTS watchlists;
        DROP TABLE IF EXISTS recent_queries;
        """)

    /// The cache database (`cache.sqlite3`): responses and posters only; everything in it may be
    /// rebuilt from TMDB. Numbered on from the single-file schema, so an old file migrates in place.
    public static let cacheMigrations: [SQLiteMigration] = [
        version1, version2, version3, replyColumn, movieIndex, changeFeed, indexQueue, replyVersion, budgetIndex, pinOwners,
        summaryVersions,
    ]

    /// Cache version 4: each response's value in the interface's shape, stored with it (`NULL` for
    /// older rows until they are fetched again; reading one decodes its body instead).
    public static let replyColumn = SQLiteMigration(version: 4, name: "stored replies", sql: """
        ALTER TABLE responses ADD COLUMN reply BLOB;
        """)

    /// Cache version 5: the local search index of every cached movie (`MovieTextIndexSchema`),
    /// filled from the search pages and movie details already cached through the queue (version 11).
    public static let movieIndex = SQLiteMigration(version: 5, name: "local search index", sql: MovieTextIndexSchema.sql)

    /// Cache version 6: TMDB's change feed. Its cursor and last run (one row), and when each
    /// response was last confirmed current by the feed (`validated_at`, `NULL`: never; its
    /// `fetched_at` says when TMDB sent it).
    public static let changeFeed = SQLiteMigration(version: 6, name: "change feed", sql: """
        ALTER TABLE responses ADD COLUMN validated_at REAL;
        CREATE TABLE change_feed (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            synced_through TEXT,
            last_run_at REAL,
            last_outcome TEXT,
            last_error TEXT,
            changed_cached INT NOT NULL DEFAULT 0,
            refetched INT NOT NULL DEFAULT 0,
            validated INT NOT NULL DEFAULT 0,
            requests INT NOT NULL DEFAULT 0
        );
        """)
}

extension StoreSchema {
    /// Cache version 7: the local search index's queue (`MovieTextIndexSchema.queueSQL`). Every
    /// search page and movie details written is queued in its own transaction, and indexed after.
    public static let indexQueue = SQLiteMigration(version: 7, name: "search index queue", sql: MovieTextIndexSchema.queueSQL)

    /// Cache version 8: the version of the interface's shape each stored reply was written in
    /// (`WireCoding.version`; `NULL` for older rows): a reply of another version is not served, the
    /// body is decoded instead, so a new field never waits 30 days for the cache to turn over.
    public static let replyVersion = SQLiteMigration(version: 8, name: "stored reply versions", sql: """
        ALTER TABLE responses ADD COLUMN reply_version INT;
        """)

    /// Cache version 9: `responses_lru` also carries each entry's `size` and `expires_at`, so the
    /// byte budget's total (`SELECT sum(size)`, every 32 writes) and `Status`'s statistics read
    /// the index alone. Before, they scanned the table, and `size` lies after the body in a row:
    /// every row's overflow pages were read (about 130 page reads per stored page at 1,000 pages).
    public static let budgetIndex = SQLiteMigration(version: 9, name: "budget columns in the LRU index", sql: budgetIndexSQL)

    /// Cache version 10: who pins what. A pin is an owner's (`pins`: the owner as the
    /// state database stores it, -1 for the system), within that owner's byte budget; `pinned`
    /// counts a response's owners, so eviction (`pinned = 0`) reads as before. `pinned_bytes` holds
    /// each owner's pinned bytes, kept by triggers as pins come and go and pinned responses change
    /// size or are deleted (their pins go with them), so a pin checks its owner's budget without
    /// adding up its pins. The pins of before become the system's: its refresh lets go of those
    /// no system list holds, and each user's refresh pins the user's again.
    public static let pinOwners = SQLiteMigration(version: 10, name: "owners of pins", sql: pinOwnersSQL)

    /// The statements of `pinOwners` (also the single-file schema's version 10).
    public static let pinOwnersSQL = """
        CREATE TABLE pins (
            owner INTEGER NOT NULL,
            key TEXT NOT NULL,
            PRIMARY KEY (owner, key)
        ) WITHOUT ROWID;
        CREATE INDEX pins_key ON pins(key);
        CREATE TABLE pinned_bytes (
            owner INTEGER PRIMARY KEY NOT NULL,
            bytes INT NOT NULL
        );
        INSERT INTO pins (owner, key) SELECT -1, key FROM responses WHERE pinned != 0;
        UPDATE responses SET pinned = 1 WHERE pinned != 0;
        INSERT INTO pinned_bytes (owner, bytes) SELECT -1, coalesce(sum(size), 0) FROM responses WHERE pinned != 0;
        CREATE TRIGGER pins_added AFTER INSERT ON pins BEGIN
            INSERT OR IGNORE INTO pinned_bytes (owner, bytes) VALUES (new.owner, 0);
            UPDATE pinned_bytes SET bytes = bytes + (SELECT size FROM responses WHERE key = new.key) WHERE owner = new.owner;
            UPDATE responses SET pinned = pinned + 1 WHERE key = new.key;
        END;
        CREATE TRIGGER pins_removed AFTER DELETE ON pins BEGIN
            UPDATE pinned_bytes SET bytes = bytes - coalesce((SELECT size FROM responses WHERE key = old.key), 0) WHERE owner = old.owner;
            UPDATE responses SET pinned = pinned - 1 WHERE key = old.key;
        END;
        CREATE TRIGGER responses_pin_resized AFTER UPDATE OF size ON responses WHEN new.pinned != 0 AND new.size != old.size BEGIN
            UPDATE pinned_bytes SET bytes = bytes + new.size - old.size WHERE owner IN (SELECT owner FROM pins WHERE key = new.key);
        END;
        CREATE TRIGGER responses_pins_deleted AFTER DELETE ON responses WHEN old.pinned != 0 BEGIN
            UPDATE pinned_bytes SET bytes = bytes - old.size WHERE owner IN (SELECT owner FROM pins WHERE key = old.key);
            DELETE FROM pins WHERE key = old.key;
        END;
        """

    /// The statements of `budgetIndex` (also the single-file schema's version 9).
    public static let budgetIndexSQL = """
        DROP INDEX responses_lru;
        CREATE INDEX responses_lru ON responses(pinned, last_access, size, expires_at);
        """

    /// Cache version 11: the version of the interface's shape each indexed movie's summary was
    /// written in (`MovieIndexing.summaryVersion`; `NULL` for older rows). A search that finds a
    /// summary of another version, or one that no longer decodes, lists the movie as its stored
    /// responses give it and queues them to be indexed again (`MovieIndexing.movie`). The pages
    /// and details not indexed yet (a cache from before version 5) are queued.
    public static let summaryVersions = SQLiteMigration(version: 11, name: "indexed summary versions", sql: summaryVersionsSQL)

    /// The statements of `summaryVersions` (also the single-file schema's version 11).
    public static let summaryVersionsSQL = """
        ALTER TABLE movie_text ADD COLUMN summary_version INT;
        INSERT INTO movie_index_queue (key) SELECT key FROM responses
        WHERE resource IN ('search', 'movie') AND http_status = 200 AND key NOT IN (SELECT key FROM movie_index_digests);
        """
}

/// The state database's schema (`state.sqlite3`): what users made and cannot get back from TMDB,
/// watchlists, recent queries, the accounts' outboxes and pulled lists, each row its owner's.
public enum StateSchema {
    /// Version 1: recent queries and watchlists, as in the single-file schema's versions 1 and 2.
    public static let version1 = SQLiteMigration(version: 1, name: "recent queries and watchlists", sql: """
        CREATE TABLE recent_queries (
            canonical TEXT PRIMARY KEY NOT NULL,
            query TEXT NOT NULL,
            saved_at REAL NOT NULL
        );
        CREATE INDEX recent_queries_saved_at ON recent_queries(saved_at);
        CREATE TABLE watchlists (
            name TEXT PRIMARY KEY NOT NULL
        );
        CREATE TABLE watchlist_queries (
            watchlist TEXT NOT NULL REFERENCES watchlists(name) ON DELETE CASCADE,
            position INT NOT NULL,
            canonical TEXT NOT NULL,
            query TEXT NOT NULL,
            pages INT NOT NULL,
            PRIMARY KEY (watchlist, canonical)
        );
        CREATE TABLE watchlist_movies (
            watchlist TEXT NOT NULL REFERENCES watchlists(name) ON DELETE CASCADE,
            position INT NOT NULL,
            movie_id INT NOT NULL,
            PRIMARY KEY (watchlist, movie_id)
        );
        """)

    /// Version 2: the TMDB account. `account_outbox` is the durable outbox of the user's
    /// edits (sent in `seq` order; `value` 1/0 for the watchlist and favourites, the rating or
    /// `NULL` for none); `account_items` is TMDB's lists as last pulled, changed by each delivery;
    /// `account_sync` one row per account: its name and the last sync's outcome. The session itself
    /// is never here (a 0600 file beside this database).
    public static let account = SQLiteMigration(version: 2, name: "account outbox and lists", sql: """
        CREATE TABLE account_outbox (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            account_id INT NOT NULL,
            list TEXT NOT NULL CHECK (list IN ('watchlist', 'favorite', 'rated')),
            movie_id INT NOT NULL,
            value REAL,
            state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'rejected')),
            created_at REAL NOT NULL,
            attempts INT NOT NULL DEFAULT 0,
            next_attempt_at REAL,
            last_error TEXT,
            settled_at REAL
        );
        CREATE INDEX account_outbox_movie ON account_outbox(account_id, list, movie_id);
        CREATE TABLE account_items (
            account_id INT NOT NULL,
            list TEXT NOT NULL,
            movie_id INT NOT NULL,
            position INT NOT NULL,
            title TEXT,
            release_date TEXT,
            rating REAL,
            PRIMARY KEY (account_id, list, movie_id)
        );
        CREATE TABLE account_sync (
            account_id INTEGER PRIMARY KEY,
            username TEXT,
            pulled_at REAL,
            last_success_at REAL,
            last_error TEXT,
            used_at REAL NOT NULL DEFAULT 0
        );
        """)

    /// Version 3: the last watchlist refresh's summary (one row, its JSON), so `Status` and
    /// `movies status` say when the last refresh ran across restarts.
    public static let lastRefresh = SQLiteMigration(version: 3, name: "last refresh", sql: """
        CREATE TABLE last_refresh (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            summary TEXT NOT NULL
        );
        """)

    /// Version 4: recent queries are private: each row belongs to the uid that searched
    /// (`SO_PEERCRED`), capped per user; the rows of before belong to root (uid 0), the default
    /// of a row written without one (an older single file's, moved in by `LegacyDatabaseSplit`).
    public static let privateRecentQueries = SQLiteMigration(version: 4, name: "private recent queries", sql: """
        CREATE TABLE recent_queries_by_user (
            uid INTEGER NOT NULL DEFAULT 0,
            canonical TEXT NOT NULL,
            query TEXT NOT NULL,
            saved_at REAL NOT NULL,
            PRIMARY KEY (uid, canonical)
        );
        INSERT INTO recent_queries_by_user (uid, canonical, query, saved_at)
            SELECT 0, canonical, query, saved_at FROM recent_queries;
        DROP TABLE recent_queries;
        ALTER TABLE recent_queries_by_user RENAME TO recent_queries;
        CREATE INDEX recent_queries_saved_at ON recent_queries(uid, saved_at);
        """)

    /// Version 5: every watchlist and every account's outbox, pulled lists and bookkeeping belong
    /// to an owner: `owner` is a uid, or -1 for the system (`Owner.system`). The rows of
    /// before become the system's: its watchlists, and the admin group's account. A watchlist is
    /// named uniquely per owner, so a personal list may share a system list's name.
    public static let owners = SQLiteMigration(version: 5, name: "owners of watchlists and accounts", sql: watchlistOwnersSQL + accountOwnersSQL)

    /// The watchlist tables rebuilt with `owner` (-1, the system, for every row of before); also
    /// the single-file schema's version 8.
    static let watchlistOwnersSQL = """
        CREATE TABLE watchlists_owned (
            owner INTEGER NOT NULL,
            name TEXT NOT NULL,
            PRIMARY KEY (owner, name)
        );
        CREATE TABLE watchlist_queries_owned (
            owner INTEGER NOT NULL,
            watchlist TEXT NOT NULL,
            position INT NOT NULL,
            canonical TEXT NOT NULL,
            query TEXT NOT NULL,
            pages INT NOT NULL,
            PRIMARY KEY (owner, watchlist, canonical),
            FOREIGN KEY (owner, watchlist) REFERENCES watchlists_owned(owner, name) ON DELETE CASCADE
        );
        CREATE TABLE watchlist_movies_owned (
            owner INTEGER NOT NULL,
            watchlist TEXT NOT NULL,
            position INT NOT NULL,
            movie_id INT NOT NULL,
            PRIMARY KEY (owner, watchlist, movie_id),
            FOREIGN KEY (owner, watchlist) REFERENCES watchlists_owned(owner, name) ON DELETE CASCADE
        );
        INSERT INTO watchlists_owned (owner, name) SELECT -1, name FROM watchlists;
        INSERT INTO watchlist_queries_owned (owner, watchlist, position, canonical, query, pages)
            SELECT -1, watchlist, position, canonical, query, pages FROM watchlist_queries;
        INSERT INTO watchlist_movies_owned (owner, watchlist, position, movie_id)
            SELECT -1, watchlist, position, movie_id FROM watchlist_movies;
        DROP TABLE watchlist_movies;
        DROP TABLE watchlist_queries;
        DROP TABLE watchlists;
        -- Renaming the parent rewrites its children's REFERENCES clauses (SQLite 3.26 and later).
        ALTER TABLE watchlists_owned RENAME TO watchlists;
        ALTER TABLE watchlist_queries_owned RENAME TO watchlist_queries;
        ALTER TABLE watchlist_movies_owned RENAME TO watchlist_movies;
        """

    /// The account tables with `owner` (-1, the system, for every row of before).
    static let accountOwnersSQL = """
        ALTER TABLE account_outbox ADD COLUMN owner INTEGER NOT NULL DEFAULT -1;
        DROP INDEX account_outbox_movie;
        CREATE INDEX account_outbox_movie ON account_outbox(owner, account_id, list, movie_id);
        CREATE TABLE account_items_owned (
            owner INTEGER NOT NULL,
            account_id INT NOT NULL,
            list TEXT NOT NULL,
            movie_id INT NOT NULL,
            position INT NOT NULL,
            title TEXT,
            release_date TEXT,
            rating REAL,
            PRIMARY KEY (owner, account_id, list, movie_id)
        );
        INSERT INTO account_items_owned (owner, account_id, list, movie_id, position, title, release_date, rating)
            SELECT -1, account_id, list, movie_id, position, title, release_date, rating FROM account_items;
        DROP TABLE account_items;
        ALTER TABLE account_items_owned RENAME TO account_items;
        CREATE TABLE account_sync_owned (
            owner INTEGER NOT NULL,
            account_id INTEGER NOT NULL,
            username TEXT,
            pulled_at REAL,
            last_success_at REAL,
            last_error TEXT,
            used_at REAL NOT NULL DEFAULT 0,
            PRIMARY KEY (owner, account_id)
        );
        INSERT INTO account_sync_owned (owner, account_id, username, pulled_at, last_success_at, last_error, used_at)
            SELECT -1, account_id, username, pulled_at, last_success_at, last_error, used_at FROM account_sync;
        DROP TABLE account_sync;
        ALTER TABLE account_sync_owned RENAME TO account_sync;
        """

    /// Version 6: the last refresh of each owner's lists, one row per owner (`owner` as
    /// in version 5): refreshes of different owners run at once, and `Status` shows a caller only
    /// those of lists they may see. The one row of before becomes the system's, as every list of
    /// before did (and, as before, every user sees it).
    public static let lastRefreshOwners = SQLiteMigration(version: 6, name: "last refresh of each owner", sql: """
        CREATE TABLE last_refresh_owned (
            owner INTEGER PRIMARY KEY NOT NULL,
            summary TEXT NOT NULL
        );
        INSERT INTO last_refresh_owned (owner, summary) SELECT -1, summary FROM last_refresh WHERE id = 1;
        DROP TABLE last_refresh;
        ALTER TABLE last_refresh_owned RENAME TO last_refresh;
        """)

    /// Every migration, in order.
    public static let migrations: [SQLiteMigration] = [version1, account, lastRefresh, privateRecentQueries, owners, lastRefreshOwners]
}
