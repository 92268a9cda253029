import MoviesDomain

extension SQLiteError {
    /// The domain error for this storage failure (`MoviesError.Code.storage`, with its
    /// `StorageFault`): the fault's advice and SQLite's description of the code, never the path.
    public var moviesError: MoviesError {
        .storage(storageFault, detail: storageDetail)
    }
}
