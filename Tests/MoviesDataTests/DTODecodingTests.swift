import Foundation
import MoviesData
import MoviesTestSupport
import Testing

/// Every recorded TMDB body decodes with the DTO moviesd uses for it (DESIGN §5).
@Suite struct DTODecodingTests {
    @Test func fixturesArePresentOrSkippedVisibly() {
        guard !Fixtures.isAvailable else {
            #expect(!Fixtures.manifest().isEmpty, "manifest.json at \(Fixtures.directory.path) is unreadable")
            return
        }
        if Fixtures.isRunningInCI {
            Issue.record("CI=true but \(Fixtures.missingReason)")
        } else {
            print("⚠️ \(Fixtures.missingReason)")
        }
    }

    @Test(.enabled(if: Fixtures.isAvailable, FixtureLocator.skipComment))
    func everyManifestEntryIsClassifiedAndEachKindIsCovered() {
        let entries = Fixtures.manifest()
        let unknown = entries.filter { FixtureLocator.kind(of: $0) == .unknown }.map(\.file)
        #expect(unknown.isEmpty, "unclassified fixtures: \(unknown)")
        for kind in [FixtureLocator.Kind.listPage, .movieRecord, .configuration, .errorBody] {
            #expect(!FixtureLocator.entries(kind).isEmpty, "no fixtures of kind \(kind)")
        }
    }

    @Test(.enabled(if: Fixtures.isAvailable, FixtureLocator.skipComment), arguments: FixtureLocator.entries(.listPage))
    func listPageDecodesEveryItemInOrder(entry: Fixtures.Entry) throws {
        let data = try Fixtures.data(entry.file)
        let dto = try MoviesResponseDTO.decode(data)
        let raw = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let rawResults = try #require(raw["results"] as? [[String: Any]])
        #expect(dto.page == raw["page"] as? Int)
        #expect(dto.totalResults == raw["total_results"] as? Int)
        #expect(dto.results.map(\.id) == rawResults.compactMap { $0["id"] as? Int })
        #expect(dto.results.count == rawResults.count, "an item was dropped")
        let page = dto.toDomain()
        #expect(page.totalPages >= 1)
        #expect(page.movies.map(\.id) == dto.results.map(\.id))
        for movie in page.movies {
            #expect(!movie.title.isEmpty, "movie \(movie.id) has no title")
            #expect(movie.releaseDate != "" && movie.posterPath != "" && movie.overview != "")
        }
    }

    @Test(.enabled(if: Fixtures.isAvailable, FixtureLocator.skipComment), arguments: FixtureLocator.entries(.movieRecord))
    func movieRecordDecodes(entry: Fixtures.Entry) throws {
        let data = try Fixtures.data(entry.file)
        let dto = try MovieDetailsDTO.decode(data)
        let raw = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(dto.id == raw["id"] as? Int)
        let details = dto.toDomain()
        #expect(!details.title.isEmpty)
        #expect(details.homepage != "" && details.releaseDate != "" && details.imdbID != "")
        #expect(details.runtime.map { $0 > 0 } ?? true)
        #expect(details.genres.count == (raw["genres"] as? [Any])?.count ?? 0)
    }

    @Test(.enabled(if: Fixtures.isAvailable, FixtureLocator.skipComment), arguments: FixtureLocator.entries(.configuration))
    func configurationDecodes(entry: Fixtures.Entry) throws {
        let dto = try ConfigurationDTO.decode(try Fixtures.data(entry.file))
        #expect(dto.images.secureBaseURL.hasPrefix("https://"))
        #expect(dto.images.posterSizes.contains("w92"))
        #expect(dto.images.posterSizes.contains("original"))
    }

    @Test(.enabled(if: Fixtures.isAvailable, FixtureLocator.skipComment), arguments: FixtureLocator.entries(.errorBody))
    func errorBodyGivesCodeAndMessage(entry: Fixtures.Entry) throws {
        let data = try Fixtures.data(entry.file)
        let dto = try #require(TMDBErrorDTO.decode(data), "\(entry.file) is not a TMDB error body")
        let raw = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(dto.statusCode == raw["status_code"] as? Int)
        let message = try #require(dto.message)
        #expect(!message.isEmpty)
    }

    @Test(.enabled(if: Fixtures.isAvailable, FixtureLocator.skipComment), arguments: FixtureLocator.entries(.listItem))
    func listItemDecodes(entry: Fixtures.Entry) throws {
        let movie = try JSONDecoder().decode(MovieDTO.self, from: try Fixtures.data(entry.file)).toDomain()
        #expect(movie.id > 0)
        #expect(!movie.title.isEmpty)
    }

    @Test(.enabled(if: Fixtures.isAvailable, FixtureLocator.skipComment))
    func edgeCasesNamedInTheReadme() throws {
        let latest = try MovieDetailsDTO.decode(try Fixtures.data("jdrouet__tmdb-api/movie-latest.json")).toDomain()
        #expect(latest.homepage == nil && latest.releaseDate == nil && latest.runtime == nil && latest.imdbID == nil)
        #expect(latest.genres.isEmpty)

        let nullHomepage = try MovieDetailsDTO.decode(try Fixtures.data("adamayoung__TMDb/movie.json")).toDomain()
        #expect(nullHomepage.homepage == nil && nullHomepage.posterPath == nil)

        let empty = try MoviesResponseDTO.decode(try Fixtures.data("jellyfin__TMDbLib/bodies/discover-movie-empty.body.json")).toDomain()
        #expect(empty.movies.isEmpty && empty.totalPages == 1 && empty.totalResults == 0 && !empty.hasMorePages)

        let pastEnd = try MoviesResponseDTO.decode(try Fixtures.data("jellyfin__TMDbLib/bodies/search-tv-page-past-end.body.json")).toDomain()
        #expect(pastEnd.page == 2 && pastEnd.movies.isEmpty)

        let tvLast = try MoviesResponseDTO.decode(try Fixtures.data("krelinga__go-tmdb/bodies/search-tv-Game-of-page-14.body.json")).toDomain()
        #expect(tvLast.page == 14 && tvLast.totalPages == 14 && tvLast.movies.count == 11 && !tvLast.hasMorePages)
        #expect(tvLast.movies.allSatisfy { !$0.title.isEmpty })

        let page2 = try MoviesResponseDTO.decode(try Fixtures.data("jellyfin__TMDbLib/bodies/search-movie-007-page-2.body.json")).toDomain()
        #expect(page2.page == 2 && page2.hasMorePages)

        let validation = try #require(TMDBErrorDTO.decode(try Fixtures.data("jdrouet__tmdb-api/validation-error.json")))
        #expect(validation.statusCode == nil && validation.message == "query must be provided")
    }

    @Test func unknownFieldsAreIgnoredAndEmptyStringsBecomeNil() throws {
        let body = #"{"page":1,"total_pages":0,"softcore":false,"results":[{"id":7,"title":"A","release_date":"","poster_path":null,"overview":"","softcore":true},{"id":"bad"},{"id":8,"name":"Show","first_air_date":"2011-04-17"}]}"#
        let page = try MoviesResponseDTO.decode(Data(body.utf8)).toDomain()
        #expect(page.movies.map(\.id) == [7, 8])
        #expect(page.totalPages == 1)
        #expect(page.movies[0].releaseDate == nil && page.movies[0].posterPath == nil && page.movies[0].overview == nil)
        #expect(page.movies[1].title == "Show" && page.movies[1].releaseDate == "2011-04-17")
    }

    @Test func errorDTORejectsBodiesThatAreNotTMDBErrors() {
        #expect(TMDBErrorDTO.decode(Data(#"{"page":1,"results":[]}"#.utf8)) == nil)
        #expect(TMDBErrorDTO.decode(Data("<html>502</html>".utf8)) == nil)
        #expect(TMDBErrorDTO.decode(Data(#"{"status_code":25,"status_message":"Your request count (41) is over the allowed limit of (40)."}"#.utf8))?.statusCode == 25)
    }
}
