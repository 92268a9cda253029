import MoviesDomain

/// One movie's details formatted for display: what `movies show` prints and the details screen of
/// `movies browse` shows. A value, so it can be made on a worker thread and shown on another.
struct MovieDetailsSummary: Sendable, Hashable {
    /// The movie's TMDB id.
    let id: Int
    /// The title.
    let title: String
    /// Year, runtime, genres and rating on one line, e.g. "1999 · 136 min · Action · ★ 8.2 (24 000 votes)".
    let factsLine: String
    /// The tagline, if any.
    let tagline: String?
    /// The plot summary, if any.
    let overview: String?
    /// Labelled extra fields (original title, homepage, IMDb, the poster's and the TMDB page's addresses...).
    let fields: [DetailField]
    /// The poster's path on TMDB, if the movie has one.
    let posterPath: String?

    /// A popularity with at most one decimal.
    static func popularity(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }

    /// Formats `movie`.
    init(_ movie: MovieDetails) {
        id = movie.id
        title = movie.title
        tagline = movie.tagline.flatMap { $0.isEmpty ? nil : $0 }
        overview = movie.overview.flatMap { $0.isEmpty ? nil : $0 }
        posterPath = movie.posterPath
        var facts: [String] = []
        if let date = movie.releaseDate, date.count >= 4 { facts.append(String(date.prefix(4))) }
        if let runtime = movie.runtime { facts.append("\(runtime) min") }
        if !movie.genres.isEmpty { facts.append(movie.genres.joined(separator: ", ")) }
        if let vote = movie.voteAverage {
            let rating = RatingFormat.average(vote, votes: movie.voteCount)
            facts.append(rating == RatingFormat.noVotes ? "★ \(rating) (no votes)" : "★ \(rating)" + (movie.voteCount.map { " (\($0) votes)" } ?? ""))
        }
        factsLine = facts.joined(separator: " · ")
        var fields: [DetailField] = []
        if movie.catalogue == true {
            // All the catalogue knows: say what is missing and when it comes.
            fields.append(DetailField(
                label: "Not cached",
                value: "known only from TMDB's daily list of every movie (its original title and popularity"
                    + (movie.popularity.map { " \(Self.popularity($0))" } ?? "")
                    + "); the details come when TMDB is reachable: run 'movies show \(movie.id)' again then, or add it to a watchlist"
                    + " and the next refresh fetches it"))
        }
        if let original = movie.originalTitle, original != movie.title {
            fields.append(DetailField(label: "Original title", value: original))
        }
        if let date = movie.releaseDate { fields.append(DetailField(label: "Released", value: date)) }
        if let status = movie.status { fields.append(DetailField(label: "Status", value: status)) }
        if let homepage = movie.homepage { fields.append(DetailField(label: "Homepage", value: homepage)) }
        if let imdb = movie.imdbID { fields.append(DetailField(label: "IMDb", value: "https://www.imdb.com/title/\(imdb)/")) }
        if let poster = movie.posterPath { fields.append(DetailField(label: "Poster", value: TMDBLinks.image(path: poster))) }
        fields.append(DetailField(label: "TMDB page", value: TMDBLinks.moviePage(id: movie.id)))
        fields.append(DetailField(label: "TMDB id", value: String(movie.id)))
        self.fields = fields
    }
}
