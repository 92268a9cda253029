import Varlink
import MoviesDomain

/// One movie's details screen, as in the seed's `MovieDetailsViewModel`: input `didLoad(id:)`,
/// outputs title, facts, overview, extra fields, freshness line, loading and error.
final class MovieDetailsViewModel {
    private let client: any MoviesClient
    private let policy: FetchPolicy?
    private let language: String?

    // MARK: Outputs

    /// The movie's title ("" before it loads).
    private(set) var title = ""
    /// Year, runtime, genres and rating on one line, e.g. "1999 · 136 min · Action · ★ 8.2 (24 000 votes)".
    private(set) var factsLine = ""
    /// The tagline, if any.
    private(set) var tagline: String?
    /// The plot summary, if any.
    private(set) var overview: String?
    /// Labelled extra fields (original title, homepage, IMDb, poster...).
    private(set) var fields: [DetailField] = []
    /// The remote-only failure (TMDB unreachable, nothing fresh) after which cached data is shown.
    private(set) var staleFailure: ClientError?
    /// The `remoteError` of the last reply: it came from the cache because TMDB failed.
    private(set) var remoteError: String?
    /// Where the record came from and how old it is.
    private(set) var freshnessLine: String?
    /// Whether the record is being waited for.
    private(set) var isLoading = false
    /// The error that left nothing to show, if any.
    private(set) var error: ClientError?
    /// Whether a record has been loaded.
    private(set) var hasDetails = false
    /// Called after every change of the outputs.
    var didChange: (() -> Void)?
    /// Called with each daemon reply's parameters and whether more replies follow (`--json`).
    var didReceiveReply: ((_ parameters: JSONValue, _ continues: Bool) -> Void)?

    /// Creates the view model over `client`, loading in `language` (`nil`: the daemon's default)
    /// with `policy`.
    init(client: any MoviesClient, language: String? = nil, policy: FetchPolicy? = nil) {
        self.client = client
        self.language = language
        self.policy = policy
    }

    // MARK: Inputs

    /// Loads the movie with TMDB id `id`, cached then fresh.
    func didLoad(id: Int) {
        isLoading = true
        error = nil
        staleFailure = nil
        remoteError = nil
        didChange?()
        var lastFreshness: Freshness?
        do {
            try client.movie(id: id, language: language, policy: policy) { reply in
                didReceiveReply?(reply.parameters, reply.continues)
                lastFreshness = reply.value.freshness
                remoteError = reply.value.freshness.remoteError
                show(reply.value.movie)
                freshnessLine = reply.value.movie.catalogue == true
                    ? "offline — known only from the catalogue, imported \(RelativeAge.describe(seconds: reply.value.freshness.ageSeconds))"
                    : FreshnessLine.describe(reply.value.freshness, refreshing: reply.continues)
                didChange?()
            }
        } catch let failure {
            if let lastFreshness, failure.isRemoteOnly {
                staleFailure = failure
                freshnessLine = FreshnessLine.describe(lastFreshness, failure: failure)
            } else {
                error = failure
            }
        }
        isLoading = false
        didChange?()
    }

    // MARK: Private

    private func show(_ movie: MovieDetails) {
        let summary = MovieDetailsSummary(movie)
        hasDetails = true
        title = summary.title
        tagline = summary.tagline
        overview = summary.overview
        factsLine = summary.factsLine
        fields = summary.fields
    }
}
