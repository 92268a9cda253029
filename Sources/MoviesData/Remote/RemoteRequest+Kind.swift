extension RemoteRequest {
    /// What the request is for, as the request metrics name it (`Endpoint.kind`): `search`,
    /// `movie`, `configuration`, `image`, `changes` (the change feed's pages) and `movie_changes`
    /// (one movie's changed keys). The account's requests are `account`.
    var kind: String {
        switch self {
        case .search: "search"
        case .movie: "movie"
        case .configuration: "configuration"
        case .image: "image"
        case .movieChanges: "changes"
        case .movieChangeKeys: "movie_changes"
        }
    }
}
