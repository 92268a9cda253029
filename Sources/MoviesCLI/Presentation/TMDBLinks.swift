/// The addresses of a movie on TMDB's website, for people (a browser), not for the API.
///
/// Images: TMDB's image base (`secure_base_url` of its configuration,
/// <https://developer.themoviedb.org/reference/configuration-details>) has been
/// `https://image.tmdb.org/t/p/` for years; the daemon does not pass on the one it has, so the
/// client uses that one, at the `original` size.
enum TMDBLinks {
    /// TMDB's image base with the size of the original file.
    static let imageBase = "https://image.tmdb.org/t/p/original"
    /// The movie pages' base.
    static let moviePageBase = "https://www.themoviedb.org/movie/"

    /// The movie's page on TMDB's website.
    static func moviePage(id: Int) -> String {
        moviePageBase + String(id)
    }

    /// The full address of an image whose TMDB path is `path` (`/abc.jpg`), at its original size.
    static func image(path: String) -> String {
        imageBase + (path.hasPrefix("/") ? path : "/" + path)
    }
}
