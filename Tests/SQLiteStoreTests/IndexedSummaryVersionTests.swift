import FoundationEssentials
import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing
@testable import SQLiteStore

/// The local index's summaries carry the version of the shape they were written in (STYLE 15): a
/// summary of another version, or one that no longer decodes, is read again from the stored
/// response that lists the movie, never left out of a page while `total` counts it.
@Suite struct IndexedSummaryVersionTests {
    /// 25 movies "Alpha 1" … "Alpha 25" (two pages of 20), the most popular first.
    static let movies = (1...25).map { Movie(id: $0, title: "Alpha \($0)", releaseDate: "1999-01-01", popularity: Double(100 - $0)) }

    static func localSearch(_ repository: DefaultMoviesRepository, page: Int) async throws -> FetchedRecord<MoviesPage> {
        let request = try SearchRequest(query: #require(MovieQuery("alpha")), page: page)
        return await FetchedRecord { try await repository.searchMovies(request, policy: .localOnly, maxStaleSeconds: nil, emit: $0) }
    }

    @Test func anUndecodableSummaryIsReadFromTheStoredResponseAndCounted() async throws {
        try await SQLiteMovieTextIndexTests.withIndex { storage, index, store in
            let repository = DefaultMoviesRepository(storage: storage, remote: ScriptedMoviesRemote(), health: RemoteHealth(), index: index)
            try await storage.save(SQLiteMovieTextIndexTests.page("alpha", Self.movies))
            _ = try await index.search(LocalSearchQuery(text: "alpha", language: ""))  // indexed
            try await store.write { connection in
                try connection.execute("UPDATE movie_text SET summary = CAST('not json' AS BLOB) WHERE movie_id = 7")
            }
            var listed: [Movie] = []
            for page in [1, 2] {
                let record = try await Self.localSearch(repository, page: page)
                #expect(record.error == nil)
                #expect(record.updates.first?.value.totalResults == 25, "page \(page)")
                listed += record.updates.first?.value.movies ?? []
            }
            #expect(listed.count == 25, "total counts every movie the pages list")
            #expect(listed.map(\.id).sorted() == Array(1...25))
            #expect(listed.first { $0.id == 7 } == Self.movies[6], "re-derived from the stored page")
        }
    }

    @Test(arguments: ["NULL", "\(WireCoding.version + 1)", "\(WireCoding.version - 1)"])
    func aSummaryOfAnotherVersionIsNotServedAndIsIndexedAgain(version: String) async throws {
        try await SQLiteMovieTextIndexTests.withIndex { storage, index, store in
            try await storage.save(SQLiteMovieTextIndexTests.page("alpha", Self.movies))
            _ = try await index.search(LocalSearchQuery(text: "alpha", language: ""))
            let oldShape = try WireCoding.bytes(Movie(id: 3, title: "Alpha 3 in yesterday's shape"))
            try await store.write { connection in
                try connection.run("UPDATE movie_text SET summary = ?, summary_version = \(version) WHERE movie_id = 3", [.blob(Data(oldShape))])
            }
            let first = try await index.search(LocalSearchQuery(text: "alpha", language: "", page: 1))
            let second = try await index.search(LocalSearchQuery(text: "alpha", language: "", page: 2))
            #expect(first.total == 25 && second.total == 25)
            #expect(first.movies.count + second.movies.count == 25)
            #expect((first.movies + second.movies).first { $0.movie.id == 3 }?.movie == Self.movies[2], "the stored page's movie, not the old summary")

            // The search queued the page again; the next catch-up wrote the summary anew.
            _ = try await index.search(LocalSearchQuery(text: "alpha", language: ""))
            let stale = try await store.read { connection in
                try connection.integer("SELECT count(*) FROM movie_text WHERE summary_version IS NOT \(WireCoding.version)")
            }
            #expect(stale == 0)
            let summary = try await store.read { connection in
                let row = try connection.prepare("SELECT summary FROM movie_text WHERE movie_id = 3")
                return try row.step() ? Array(row.blob(at: 0)) : []
            }
            #expect(try WireCoding.decode(Movie.self, from: summary) == Self.movies[2])
        }
    }

    @Test func anIndexOfThePreviousSchemaIsSearchedThenWrittenAtTodaysVersion() async throws {
        try await TemporaryDatabase.with { database in
            let previous = Array(StoreSchema.cacheMigrations.dropLast())
            let old = try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: previous))
            let page = SQLiteMovieTextIndexTests.page("alpha", Self.movies)
            try await old.write { connection in
                // What moviesd of the previous cache schema stored and indexed: summaries of no known version.
                try connection.run("""
                    INSERT INTO responses (key, resource, body, content_type, http_status, fetched_at, expires_at, etag,
                                           last_modified, last_access, size, reply, reply_version)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, ResponseRow.values(of: page, lastAccess: 0))
                try connection.execute("DELETE FROM movie_index_queue")
                for movie in Self.movies {
                    let row = try connection.prepare("""
                        INSERT INTO movie_text (movie_id, language, title, original_title, overview, popularity, summary, fetched_at, unspaced)
                        VALUES (?, '', ?, '', '', ?, ?, 0, 0) RETURNING id
                        """, [.int(movie.id), .text(movie.title), .real(movie.popularity ?? 0), .blob(Data(try WireCoding.bytes(movie)))])
                    while try row.step() {
                        try connection.run("INSERT INTO movie_sources (key, movie) VALUES (?, ?)", [.text(page.key), .integer(row.int64(at: 0))])
                    }
                }
                try connection.run("INSERT INTO movie_index_digests (key, digest) VALUES (?, 1)", [.text(page.key)])
            }
            await old.close()
            let store = try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: StoreSchema.cacheMigrations))
            let index = SQLiteMovieTextIndex(store: store)
            let found = try await index.search(LocalSearchQuery(text: "alpha", language: ""))
            #expect(found.total == 25)
            #expect(found.movies.map(\.movie) == Array(Self.movies.prefix(20)))
            _ = try await index.search(LocalSearchQuery(text: "alpha", language: ""))
            let versions = try await store.read { connection in
                try connection.integer("SELECT count(*) FROM movie_text WHERE summary_version = \(WireCoding.version)")
            }
            #expect(versions == 25, "the page that lists the movies a search read is indexed again, at today's version")
            await store.close()
        }
    }
}
