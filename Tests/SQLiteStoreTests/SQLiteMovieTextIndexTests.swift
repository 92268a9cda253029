import FoundationEssentials
import Foundation
import MoviesData
import MoviesDomain
import MoviesTestSupport
import MoviesWire
import Testing
@testable import SQLiteStore

/// The local search index: kept with the responses it comes from, matching real titles (accents,
/// Greek, Hangul, Japanese) the way users type them, and ranked title first.
@Suite struct SQLiteMovieTextIndexTests {
    static let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// A stored search page listing `movies`, with its reply as the loader stores it (the index
    /// reads the reply), in `language` (part of the key, as in `CacheKey`).
    static func page(_ key: String, _ movies: [Movie], fetchedAt: Date = fetchedAt, language: String? = nil) -> StoredResponse {
        let page = MoviesPage(page: 1, totalPages: 1, totalResults: movies.count, movies: movies)
        return StoredResponse(
            key: "search/movie?query=\(key)&language=\(language ?? "")&page=1", resource: .search, body: Data("{}".utf8),
            fetchedAt: fetchedAt, expiresAt: fetchedAt.addingTimeInterval(600), reply: try? WireCoding.bytes(page), replyVersion: WireCoding.version)
    }

    /// A stored response of a recorded body, without a reply: indexed from its body.
    static func recorded(_ path: String, key: String) throws -> StoredResponse {
        let response = StoredResponse(key: key, resource: .search, body: try Fixtures.data(path), fetchedAt: fetchedAt, expiresAt: fetchedAt.addingTimeInterval(600))
        #expect(!MovieIndexing.entries(of: response).isEmpty, "\(path) indexes no movie")
        return response
    }

    /// Rows in `table`.
    static func count(_ table: String, _ store: SQLiteStore) async throws -> Int64 {
        try await store.read { connection in try connection.integer("SELECT count(*) FROM \(table)") ?? -1 }
    }

    static func withIndex(_ body: (SQLiteResponseStorage, SQLiteMovieTextIndex, SQLiteStore) async throws -> Void) async throws {
        try await TemporaryDatabase.with { database in
            let store = try SQLiteStore(path: database.path, readers: 2)
            do {
                try await body(SQLiteResponseStorage(store: store), SQLiteMovieTextIndex(store: store), store)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }

    /// The ids found for `text`, best first, and how many match in all.
    static func ids(_ index: SQLiteMovieTextIndex, _ text: String, language: String = "", page: Int = 1) async throws -> (ids: [Int], total: Int) {
        let found = try await index.search(LocalSearchQuery(text: text, language: language, page: page))
        let ids = found.movies.map(\.movie.id)
        return (ids, found.total)
    }

    static func integrityCheck(_ store: SQLiteStore) async throws {
        try await store.write { connection in
            try connection.execute("INSERT INTO movie_words(movie_words) VALUES ('integrity-check')")
            try connection.execute("INSERT INTO movie_trigrams(movie_trigrams) VALUES ('integrity-check')")
        }
    }

    @Test(.enabled(if: Fixtures.isAvailable, Comment(rawValue: Fixtures.missingReason)), arguments: [
        ("stuuut", 1_542_666),  // Stuuût 007: diacritics folded, a prefix of the word
        ("STUUÛT 007", 1_542_666),
        ("stu", 1_542_666),
        ("εισπρακτωρ", 649_110),  // Εισπράκτωρ 007: Greek, accent folded
        ("철인", 931_992),  // 철인 007 (Iron Man 007): a Hangul word
        ("千と千尋", 129),  // 千と千尋の神隠し (Spirited Away): a prefix of an unspaced title
        ("神隠し", 129),  // ...and a substring inside it (trigram)
        ("千尋", 129),  // ...and two characters (LIKE over the titles)
        ("vita e bella", 637),  // La vita è bella
        ("la vita è", 637),
        ("seven samurai", 346),
        ("samur", 346),
    ])
    func findsRealTitlesAsUsersTypeThem(text: String, id: Int) async throws {
        try await Self.withIndex { storage, index, store in
            try await storage.save(Self.recorded("jellyfin__TMDbLib/bodies/search-movie-007-page-1.body.json", key: CacheKey.search(MovieQuery("007")!, page: 1, language: nil)))
            try await storage.save(Self.recorded("jdrouet__tmdb-api/movie-top-rated.json", key: "movie/top_rated?language=&page=1"))
            let found = try await Self.ids(index, text)
            #expect(found.ids.first == id, "\(text) → \(found.ids)")
            #expect(found.total >= 1)
            try await Self.integrityCheck(store)
        }
    }

    @Test(.enabled(if: Fixtures.isAvailable, Comment(rawValue: Fixtures.missingReason)))
    func findsNothingForTextNoCachedMovieHasOrInAnotherLanguage() async throws {
        try await Self.withIndex { storage, index, _ in
            try await storage.save(Self.recorded("jellyfin__TMDbLib/bodies/search-movie-007-page-1.body.json", key: CacheKey.search(MovieQuery("007")!, page: 1, language: nil)))
            #expect(try await Self.ids(index, "xyzzy").total == 0)
            #expect(try await Self.ids(index, "zz").total == 0)
            #expect(try await Self.ids(index, "   ").total == 0)
            #expect(try await Self.ids(index, "\"%_'").total == 0)
            #expect(try await Self.ids(index, "stuuut", language: "de").total == 0)
            #expect(try await Self.ids(index, "stuuut").total == 1)
        }
    }

    @Test func ranksTitleMatchesAboveOverviewMatchesThenByPopularity() async throws {
        try await Self.withIndex { storage, index, _ in
            try await storage.save(Self.page("k", [
                Movie(id: 1, title: "A Documentary", overview: "The making of The Matrix", popularity: 90),
                Movie(id: 2, title: "The Matrix", overview: "A hacker learns the truth", popularity: 10),
                Movie(id: 3, title: "Twin", overview: "same", popularity: 5),
                Movie(id: 4, title: "Twin", overview: "same", popularity: 50),
            ]))
            #expect(try await Self.ids(index, "matrix").ids == [2, 1])
            #expect(try await Self.ids(index, "twin").ids == [4, 3])
        }
    }

    @Test func aWordInNearlyEveryMovieIsNotRequiredWhenOthersAreGiven() async throws {
        try await Self.withIndex { storage, index, _ in
            // 800 movies, every one with "the" in its overview; three titled "Nomad".
            for page in 0..<40 {
                let movies = (0..<20).map { n -> Movie in
                    let id = page * 20 + n + 1
                    return Movie(id: id, title: id % 300 == 0 ? "Nomad \(id)" : "Film \(id)", overview: "the story of the film", popularity: Double(id))
                }
                try await storage.save(Self.page("p\(page)", movies))
            }
            let both = try await Self.ids(index, "the nomad")
            #expect(both.ids == [600, 300], "matched by the rare word; \"the\" is in every movie")
            #expect(try await Self.ids(index, "the").total == 800, "alone, it still matches")
            #expect(try await Self.ids(index, "nomad the").total == 2)
            #expect(SQLiteMovieTextIndex.words(of: "The Nomad") == ["The", "Nomad"])
        }
    }

    @Test func pagesThroughEveryMatchOnce() async throws {
        try await Self.withIndex { storage, index, _ in
            // Titles that match equally well: the pages split them, each page by popularity.
            let movies = (1...45).map { Movie(id: $0, title: "Star \($0)", popularity: Double($0)) }
            try await storage.save(Self.page("k", movies))
            var seen: [Int] = []
            for page in 1...3 {
                let found = try await Self.ids(index, "star", page: page)
                #expect(found.total == 45)
                #expect(found.ids.count == (page < 3 ? 20 : 5))
                #expect(found.ids == found.ids.sorted(by: >), "page \(page) by popularity: \(found.ids)")
                seen += found.ids
            }
            #expect(seen.sorted() == Array(1...45))
            #expect(try await Self.ids(index, "star", page: 4).ids.isEmpty)
        }
    }

    @Test func inAMixOfLanguagesOnlyTheAskedOneIsSearched() async throws {
        try await Self.withIndex { storage, index, _ in
            try await storage.save(Self.page("en", (1...30).map { Movie(id: $0, title: "Star \($0)", popularity: Double($0)) }))
            try await storage.save(Self.page("de", (1...5).map { Movie(id: $0, title: "Stern \($0)", popularity: Double($0)) }, language: "de"))
            #expect(try await Self.ids(index, "st").total == 30)
            #expect(try await Self.ids(index, "st", language: "de").ids == [5, 4, 3, 2, 1])
            #expect(try await Self.ids(index, "st", page: 2).ids.count == 10)
        }
    }

    @Test func theIndexHoldsExactlyTheMoviesTheCachedResponsesList() async throws {
        try await Self.withIndex { storage, index, store in
            try await storage.save(Self.page("a", [Movie(id: 1, title: "Alpha"), Movie(id: 2, title: "Beta")]))
            try await storage.save(Self.page("b", [Movie(id: 2, title: "Beta"), Movie(id: 3, title: "Gamma")]))
            #expect(try await Self.ids(index, "alpha").ids == [1])
            // A newer page under "a" no longer lists Alpha: it leaves; Beta is still listed by both.
            try await storage.save(Self.page("a", [Movie(id: 2, title: "Beta")], fetchedAt: Self.fetchedAt.addingTimeInterval(60)))
            #expect(try await Self.ids(index, "alpha").total == 0)
            #expect(try await Self.ids(index, "beta").ids == [2])
            // An older page is not stored, and does not bring Alpha back.
            try await storage.save(Self.page("a", [Movie(id: 1, title: "Alpha")], fetchedAt: Self.fetchedAt))
            #expect(try await Self.ids(index, "alpha").total == 0)

            _ = try await storage.purge(keyPrefixes: ["search/movie?query=b&"])
            #expect(try await Self.ids(index, "gamma").total == 0)
            #expect(try await Self.ids(index, "beta").ids == [2], "still listed by a")
            #expect(try await storage.evict(toFit: 0) == 1)
            #expect(try await Self.ids(index, "beta").total == 0)
            let rows = try await store.read { connection in
                (try connection.integer("SELECT count(*) FROM movie_text"), try connection.integer("SELECT count(*) FROM movie_sources"))
            }
            #expect(rows.0 == 0 && rows.1 == 0)
            try await Self.integrityCheck(store)
        }
    }

    @Test func aMovieChangedByANewerResponseIsFoundByItsNewTextOnly() async throws {
        try await Self.withIndex { storage, index, store in
            try await storage.save(Self.page("a", [Movie(id: 7, title: "Old Name")]))
            try await storage.save(Self.page("b", [Movie(id: 7, title: "New Name")], fetchedAt: Self.fetchedAt.addingTimeInterval(1)))
            #expect(try await Self.ids(index, "old").total == 0)
            #expect(try await Self.ids(index, "new name").ids == [7])
            // The same movie in another language is another entry.
            try await storage.save(Self.page("c", [Movie(id: 7, title: "Neuer Name")], language: "de"))
            #expect(try await Self.ids(index, "neuer", language: "de").ids == [7])
            #expect(try await Self.ids(index, "new", language: "de").total == 0)
            try await Self.integrityCheck(store)
        }
    }

    @Test func thePageFetchedAgainUnchangedOnlyMovesWhenItsMoviesWereFetched() async throws {
        try await Self.withIndex { storage, index, store in
            let movies = [Movie(id: 1, title: "Alpha", popularity: 2), Movie(id: 2, title: "Beta", popularity: 1)]
            try await storage.save(Self.page("a", movies))
            #expect(try await MovieIndexUpkeep(store: store).catchUp() == 1)
            let later = Self.fetchedAt.addingTimeInterval(3600)
            try await storage.save(Self.page("a", movies, fetchedAt: later))
            let digest = try await store.read { try $0.integer("SELECT digest FROM movie_index_digests") }
            let found = try await index.search(LocalSearchQuery(text: "alpha", language: ""))
            #expect(found.movies.map(\.fetchedAt) == [later])
            #expect(try await store.read { try $0.integer("SELECT digest FROM movie_index_digests") } == digest, "the same movies")
            // Then a change: the new text is found, the old is not.
            try await storage.save(Self.page("a", [Movie(id: 1, title: "Alphabet", popularity: 2)], fetchedAt: later.addingTimeInterval(1)))
            #expect(try await Self.ids(index, "alphabet").ids == [1])
            #expect(try await Self.ids(index, "beta").total == 0)
            try await Self.integrityCheck(store)
        }
    }

    @Test func aCacheFromBeforeTheIndexIsIndexedByItsMigration() async throws {
        try await TemporaryDatabase.with { database in
            let before = Array(StoreSchema.cacheMigrations.prefix(4))  // up to the stored replies
            let old = try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: before))
            let body = #"{"page":1,"total_pages":1,"total_results":1,"results":[{"id":9,"title":"Amélie","original_title":"Le Fabuleux Destin d'Amélie Poulain","popularity":3.5}]}"#
            try await old.write { connection in
                _ = try connection.run("""
                    INSERT INTO responses (key, resource, body, content_type, http_status, fetched_at, expires_at, last_access, size)
                    VALUES ('search/movie?query=amelie&language=fr&page=1', 'search', ?, 'application/json', 200, 1000, 2000, 1000, 10),
                           ('image/w92/x.jpg', 'poster', x'ffd8', 'image/jpeg', 200, 1000, 2000, 1000, 2)
                    """, [.blob(Data(body.utf8))])
            }
            await old.close()
            let store = try SQLiteStore(path: database.path, readers: 1, migrator: SQLiteMigrator(migrations: StoreSchema.cacheMigrations))
            let index = SQLiteMovieTextIndex(store: store)
            #expect(try await Self.ids(index, "amelie", language: "fr").ids == [9])
            #expect(try await Self.ids(index, "fabuleux destin", language: "fr").ids == [9])
            #expect(try await Self.ids(index, "amelie").total == 0, "indexed in the language its key asked for")
            await store.close()
        }
    }
}
