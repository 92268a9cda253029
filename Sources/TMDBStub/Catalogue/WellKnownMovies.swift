/// The fixed, well-known movies every catalogue contains at their real TMDB ids.
enum WellKnownMovies {
    /// The fixed movies (searchKey is filled in by the catalogue).
    static let all: [StubMovie] = [
        make(603, "The Matrix", "1999-03-31", "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg", 136, "tt0133093", [28, 878],
             "Set in the 22nd century, The Matrix tells the story of a computer hacker who joins a group of underground insurgents fighting the vast and powerful computers who now rule the earth.",
             "Welcome to the Real World.", "http://www.warnerbros.com/matrix"),
        make(604, "The Matrix Reloaded", "2003-05-15", "/9TGHDvWrqKBzwDxDodHYXEmOE6J.jpg", 138, "tt0234215", [12, 28, 53, 878],
             "Six months after the events depicted in The Matrix, Neo has proved to be a good omen for the free humans, as more and more humans are being freed from the matrix and brought to Zion.",
             "Free your mind.", ""),
        make(605, "The Matrix Revolutions", "2003-11-05", "/t1wm4PgOQ8e4z1C6tk1yDYrps4X.jpg", 129, "tt0242653", [12, 28, 53, 878],
             "The human city of Zion defends itself against the massive invasion of the machines as Neo fights to end the war at another front while also opposing the rogue Agent Smith.",
             "Everything that has a beginning has an end.", nil),
        make(550, "Fight Club", "1999-10-15", "/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg", 139, "tt0137523", [18],
             "A ticking-time-bomb insomniac and a slippery soap salesman channel primal male aggression into a shocking new form of therapy. Their concept catches on, with underground \"fight clubs\" forming in every town, until an eccentric gets in the way and ignites an out-of-control spiral toward oblivion.",
             "Mischief. Mayhem. Soap.", "http://www.foxmovies.com/movies/fight-club"),
        make(27205, "Inception", "2010-07-15", "/oYuLEt3zVCKq57qu2F8dT7NIa6f.jpg", 148, "tt1375666", [28, 878, 12],
             "Cobb, a skilled thief who commits corporate espionage by infiltrating the subconscious of his targets is offered a chance to regain his old life as payment for a task considered to be impossible: \"inception\", the implantation of another person's idea into a target's subconscious.",
             "Your mind is the scene of the crime.", "https://www.warnerbros.com/movies/inception"),
        make(11, "Star Wars", "1977-05-25", "/6FfCtAuVAW8XJjZ7eWeLibRLWTw.jpg", 121, "tt0076759", [12, 28, 878],
             "Princess Leia is captured and held hostage by the evil Imperial forces in their effort to take over the galactic Empire. Venturesome Luke Skywalker and dashing captain Han Solo team together with the loveable robot duo R2-D2 and C-3PO to rescue the beautiful princess and restore peace and justice in the Empire.",
             "A long time ago in a galaxy far, far away...", "http://www.starwars.com/films/star-wars-episode-iv-a-new-hope"),
    ]

    private static func make(
        _ id: Int, _ title: String, _ date: String, _ poster: String, _ runtime: Int, _ imdb: String,
        _ genres: [Int], _ overview: String, _ tagline: String, _ homepage: String?
    ) -> StubMovie {
        StubMovie(
            id: id, title: title, originalTitle: title, originalLanguage: "en", overview: overview,
            releaseDate: date, posterPath: poster, backdropPath: "/backdrop\(id)Aa0Bb1Cc2Dd3Ee4Ff5Gg.jpg",
            genreIDs: genres, popularity: 300 + Double(id % 97), voteAverage: 8.2, voteCount: 20_000 + id % 5_000,
            adult: false, video: false, runtime: runtime, tagline: tagline, homepage: homepage, imdbID: imdb,
            status: "Released", budget: 63_000_000, revenue: 300_000_000,
            productionCompanies: [StubMovie.Company(id: 174, name: "Warner Bros. Pictures", logoPath: "/zhD3hhtKB5qyv7ZeL4uLpNxgMVU.png", originCountry: "US")],
            originCountry: ["US"], searchKey: ""
        )
    }
}
