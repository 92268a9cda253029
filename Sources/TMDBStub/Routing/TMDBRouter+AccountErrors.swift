extension TMDBRouter {
    /// TMDB's 401 code 3: no session, an unknown or expired one (or the `sessionExpired` fault).
    static let authenticationFailed = HTTPResponse.tmdbError(
        status: 401, code: 3, message: "Authentication failed: You do not have permissions to access the service."
    )

    /// TMDB's 422 code 5: a body that is not JSON, lacks a member or has one of the wrong type.
    static let invalidParameters = HTTPResponse.tmdbError(
        status: 422, code: 5, message: "Invalid parameters: Your request parameters are incorrect."
    )

    /// TMDB's 404 code 6: an id that is not a positive integer.
    static let invalidID = HTTPResponse.tmdbError(status: 404, code: 6, message: "Invalid id: The pre-requisite id is invalid or not found.")

    /// TMDB's 400 code 22: a page outside 1...500.
    static let invalidPage = HTTPResponse.tmdbError(
        status: 400, code: 22, message: "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer."
    )

    /// TMDB's answer to an applied write: 201 code 1, 201 code 12 or 200 code 13.
    static func answer(to outcome: WriteOutcome) -> HTTPResponse {
        switch outcome {
        case .created: .tmdbSuccess(status: 201, code: 1, message: "Success.")
        case .updated: .tmdbSuccess(status: 201, code: 12, message: "The item/record was updated successfully.")
        case .deleted: .tmdbSuccess(status: 200, code: 13, message: "The item/record was deleted successfully.")
        }
    }
}
