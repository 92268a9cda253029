import MoviesWire

/// The details screen's answers: the movie, then its poster when the terminal can draw it.
extension BrowseModel {
    mutating func movieReplied(id: Int, _ reply: MovieReply, continues: Bool) -> [BrowseEffect] {
        guard var details = state.details, details.requestID == id else { return [] }
        details.summary = MovieDetailsSummary(reply.movie)
        details.freshnessLine = FreshnessLine.describe(reply.freshness, refreshing: continues)
        details.isLoading = continues
        details.error = nil
        state.details = details
        return posterIfNeeded()
    }

    mutating func movieEnded(id: Int, _ error: ClientError?) {
        guard var details = state.details, details.requestID == id else { return }
        details.isLoading = false
        if let error {
            if details.summary == nil || !error.isRemoteOnly {
                details.error = error
            } else if let line = details.freshnessLine {
                details.freshnessLine = line.replacingRefreshing(with: "TMDB could not be asked")
            }
        }
        state.details = details
    }

    mutating func posterLoaded(id: Int, _ result: Result<PosterReply, ClientError>) {
        guard var details = state.details, details.requestID == id else { return }
        switch result {
        case .success(let reply):
            if let graphics = state.graphics, !graphics.shows(reply.mimeType) {
                details.poster = .unavailable("poster not shown: \(graphics.rawValue)'s protocol does not take \(reply.mimeType)")
            } else {
                details.poster = .loaded(base64: reply.base64, mimeType: reply.mimeType)
            }
        case .failure(let error):
            details.poster = .unavailable("poster not loaded: \(error.message)")
        }
        state.details = details
    }

    /// The poster's call, once the details name a poster and the terminal said it can draw one.
    mutating func posterIfNeeded() -> [BrowseEffect] {
        guard var details = state.details, details.poster == .none, state.graphics != nil,
              let path = details.summary?.posterPath else { return [] }
        details.poster = .loading
        state.details = details
        return [.loadPoster(id: details.requestID, path: path, width: Self.posterPixelWidth)]
    }
}

extension String {
    /// A freshness line's "· refreshing…" replaced by `text`.
    func replacingRefreshing(with text: String) -> String {
        guard hasSuffix("refreshing…") else { return self }
        return String(dropLast("refreshing…".count)) + text
    }
}
