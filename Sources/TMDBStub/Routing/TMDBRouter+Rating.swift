extension TMDBRouter {
    /// `POST /3/movie/{id}/rating` with `{"value":8.5}`: 0.5...10 in steps of 0.5 (else 400 code
    /// 18); 201 code 1 for a new rating, 12 for a changed one. Rating removes the movie from the
    /// watchlist, as TMDB does.
    func rate(movieIDText: String, body: [UInt8]) -> HTTPResponse {
        guard let id = catalogueMovieID(movieIDText) else { return unknownMovie(movieIDText) }
        guard let value = JSONBody(body)?.number("value") else { return Self.invalidParameters }
        if value < 0.5 { return Self.invalidValue("Value too low: Value must be greater than 0.") }
        if value > 10 { return Self.invalidValue("Value too high: Value must be less than, or equal to 10.0.") }
        if (value * 2).rounded() != value * 2 { return Self.invalidValue("Value invalid: Values must be a multiple of 0.50.") }
        return Self.answer(to: account.rate(movieID: id, value: value))
    }

    /// `DELETE /3/movie/{id}/rating`: 200 code 13, whether the movie was rated or not.
    func removeRating(movieIDText: String) -> HTTPResponse {
        guard let id = catalogueMovieID(movieIDText) else { return unknownMovie(movieIDText) }
        return Self.answer(to: account.removeRating(movieID: id))
    }

    /// `GET /3/movie/{id}/account_states`: `{"id","favorite","rated":{"value":…} or false,"watchlist"}`.
    func accountStates(movieIDText: String) -> HTTPResponse {
        guard let id = catalogueMovieID(movieIDText) else { return unknownMovie(movieIDText) }
        let states = account.states(of: id)
        return .json(.object([
            ("id", .int(id)), ("favorite", .bool(states.favorite)),
            ("rated", states.rating.map { .object([("value", .double($0))]) } ?? .bool(false)),
            ("watchlist", .bool(states.watchlist)),
        ]))
    }

    /// The id of a catalogue movie, nil for any other path component.
    private func catalogueMovieID(_ idText: String) -> Int? {
        guard let id = Int(idText), catalogue.movie(id: id) != nil else { return nil }
        return id
    }

    /// Why `idText` names no catalogue movie: 404 code 6 when it is not a positive integer, else 34.
    private func unknownMovie(_ idText: String) -> HTTPResponse {
        guard let id = Int(idText), id > 0 else { return Self.invalidID }
        return Self.notFound
    }

    private static func invalidValue(_ message: String) -> HTTPResponse {
        .tmdbError(status: 400, code: 18, message: message)
    }
}
