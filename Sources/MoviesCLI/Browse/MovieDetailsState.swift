import MoviesDomain
import MoviesWire

/// The details screen of one movie: what is known of it, its poster, and where it came from.
struct MovieDetailsState: Sendable, Hashable {
    /// What its poster is doing.
    enum Poster: Sendable, Hashable {
        /// Not asked for (no poster, no image protocol, or the protocol is not known yet).
        case none
        /// Asked for.
        case loading
        /// Loaded: the image file, base64, and its type.
        case loaded(base64: String, mimeType: String)
        /// Not shown, and why (to say so on the screen).
        case unavailable(String)
    }

    /// The id of the `Movie` call; its replies and the poster's carry it.
    let requestID: Int
    /// The TMDB id.
    let movieID: Int
    /// The title from the list, until the details come.
    var title: String
    /// The details, once a reply came.
    var summary: MovieDetailsSummary?
    /// Where they came from and how old they are.
    var freshnessLine: String?
    /// Whether a reply is still expected.
    var isLoading = true
    /// The error that left nothing to show.
    var error: ClientError?
    /// The poster.
    var poster: Poster = .none
    /// The first line of the text shown (the overview scrolls when it is long).
    var scroll = 0
}
