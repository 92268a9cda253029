extension StubMovie {
    /// The movie as an item of a TMDB search page (`/3/search/movie` results).
    public var searchResultJSON: JSONValue {
        .object([
            ("adult", .bool(adult)),
            ("backdrop_path", .optionalString(backdropPath)),
            ("genre_ids", .array(genreIDs.map(JSONValue.int))),
            ("id", .int(id)),
            ("original_language", .string(originalLanguage)),
            ("original_title", .string(originalTitle)),
            ("overview", .string(overview)),
            ("popularity", .double(popularity)),
            ("poster_path", .optionalString(posterPath)),
            ("release_date", .string(releaseDate)),
            ("title", .string(title)),
            ("video", .bool(video)),
            ("vote_average", .double(voteAverage)),
            ("vote_count", .int(voteCount)),
        ])
    }

    /// The movie as TMDB's `/3/movie/{id}` details record.
    public var detailsJSON: JSONValue {
        .object([
            ("adult", .bool(adult)),
            ("backdrop_path", .optionalString(backdropPath)),
            ("belongs_to_collection", .null),
            ("budget", .int(budget)),
            ("genres", .array(genreIDs.map { .object([("id", .int($0)), ("name", .string(CatalogueWords.genreNames[$0] ?? "Drama"))]) })),
            ("homepage", .optionalString(homepage)),
            ("id", .int(id)),
            ("imdb_id", .optionalString(imdbID)),
            ("origin_country", .array(originCountry.map(JSONValue.string))),
            ("original_language", .string(originalLanguage)),
            ("original_title", .string(originalTitle)),
            ("overview", .string(overview)),
            ("popularity", .double(popularity)),
            ("poster_path", .optionalString(posterPath)),
            ("production_companies", .array(productionCompanies.map(\.json))),
            ("production_countries", .array(originCountry.map { .object([("iso_3166_1", .string($0)), ("name", .string($0))]) })),
            ("release_date", .string(releaseDate)),
            ("revenue", .int(revenue)),
            ("runtime", .int(runtime)),
            ("spoken_languages", .array([.object([("english_name", .string(originalLanguage)), ("iso_639_1", .string(originalLanguage)), ("name", .string(originalLanguage))])])),
            ("status", .string(status)),
            ("tagline", .string(tagline)),
            ("title", .string(title)),
            ("video", .bool(video)),
            ("vote_average", .double(voteAverage)),
            ("vote_count", .int(voteCount)),
        ])
    }
}

extension StubMovie.Company {
    /// The company as TMDB lists it in `production_companies`.
    var json: JSONValue {
        .object([("id", .int(id)), ("logo_path", .optionalString(logoPath)), ("name", .string(name)), ("origin_country", .string(originCountry))])
    }
}

extension StubMovie {
    /// A search-result item for movie `id` when the catalogue has no such movie (an id put on an
    /// account list through the control port): `Movie <id>` with empty or zero fields.
    public static func placeholderSearchResultJSON(id: Int) -> JSONValue {
        .object([
            ("adult", .bool(false)),
            ("backdrop_path", .null),
            ("genre_ids", .array([])),
            ("id", .int(id)),
            ("original_language", .string("en")),
            ("original_title", .string("Movie \(id)")),
            ("overview", .string("")),
            ("popularity", .double(0)),
            ("poster_path", .null),
            ("release_date", .string("")),
            ("title", .string("Movie \(id)")),
            ("video", .bool(false)),
            ("vote_average", .double(0)),
            ("vote_count", .int(0)),
        ])
    }
}
