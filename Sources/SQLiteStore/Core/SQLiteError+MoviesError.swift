import MoviesDomain

extension SQLiteError {
    /// The domain error for this storage failure (`MoviesError.Code.storage`), keeping the sentence.
    public var moviesError: MoviesError {
        MoviesError(code: .storage, message: "The local database failed: \(description)")
    }
}
