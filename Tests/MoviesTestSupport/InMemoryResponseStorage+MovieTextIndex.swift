import FoundationEssentials
import MoviesData

/// The in-memory storage is its own local search index, like the SQLite one: the movies its
/// current responses list (`MovieIndexing.entries(of:)`), matched by words as substrings of
/// the folded text, title matches first, then by popularity.
extension InMemoryResponseStorage: MovieTextIndex {
    public func search(_ query: LocalSearchQuery) throws -> LocalMatches {
        try check()
        let words = SearchText.folded(query.text).lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        guard !words.isEmpty else { return LocalMatches(total: 0, movies: []) }
        var latest: [Int: IndexedMovie] = [:]
        for movie in indexedMovies where movie.language == query.language {
            if let known = latest[movie.movieID], known.fetchedAt > movie.fetchedAt { continue }
            latest[movie.movieID] = movie
        }
        func contains(_ text: String) -> Bool { words.allSatisfy { text.lowercased().contains($0) } }
        let found = latest.values
            .filter { contains($0.title + " " + $0.originalTitle + " " + $0.overview) }
            .sorted { a, b in
                let (aTitle, bTitle) = (contains(a.title + " " + a.originalTitle), contains(b.title + " " + b.originalTitle))
                if aTitle != bTitle { return aTitle }
                return a.popularity != b.popularity ? a.popularity > b.popularity : a.movieID < b.movieID
            }
        let page = found.dropFirst((query.page - 1) * query.pageSize).prefix(query.pageSize)
        return LocalMatches(total: found.count, movies: page.map { indexed in
            let read = MovieIndexing.movie(id: indexed.movieID, title: indexed.title, summary: indexed.summary, version: MovieIndexing.summaryVersion) { [] }
            return LocalMatches.Match(movie: read.movie, fetchedAt: indexed.fetchedAt)
        })
    }
}
