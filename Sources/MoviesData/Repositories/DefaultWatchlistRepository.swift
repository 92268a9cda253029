import MoviesDomain
import MoviesWire

/// Watchlists over a `WatchlistStorage`. Edits are read-modify-write, serialized by the actor.
/// Entries no longer on any list are unpinned, so eviction may remove them again: search pages,
/// movie details and the posters of movies that left every list.
public actor DefaultWatchlistRepository: WatchlistRepository {
    private let storage: any WatchlistStorage
    private let responses: any ResponseStorage
    private let didChange: @Sendable () -> Void
    /// The language the lists' entries are fetched in (`nil`: TMDB's default), as the refresher's.
    private let language: String?

    /// Creates the repository; `responses` is the cache whose entries are pinned and unpinned,
    /// fetched in `language`; `didChange` is called after every edit (to wake the refresh scheduler).
    public init(storage: any WatchlistStorage, responses: any ResponseStorage, language: String? = nil, didChange: @escaping @Sendable () -> Void = {}) {
        self.storage = storage
        self.responses = responses
        self.language = language
        self.didChange = didChange
    }

    /// Every watchlist of every owner.
    public func watchlists() async throws -> [Watchlist] {
        try await storage.watchlists()
    }

    /// The watchlists of `owners`.
    public func watchlists(of owners: Set<Owner>) async throws -> [Watchlist] {
        try await storage.watchlists(of: owners)
    }

    /// Adds entries to `owner`'s list `name`, creating it if needed.
    public func add(to name: String, owner: Owner, queries: [WatchlistQuery], movieIDs: [Int]) async throws -> Watchlist {
        let before = try await storage.watchlists(of: [owner])
        var list = before.first { $0.name == name } ?? Watchlist(name: name, owner: owner)
        list.add(queries: queries, movieIDs: movieIDs)
        try await storage.save(list)
        // Lowering a query's depth frees the pages beyond it.
        try await unpinUnused(of: owner, before: before)
        didChange()
        return list
    }

    /// Removes entries from `owner`'s list `name`. A list that does not exist is looked for among
    /// `owner`'s alone, so the error takes no longer for a name another user has.
    public func remove(from name: String, owner: Owner, queries: [MovieQuery], movieIDs: [Int]) async throws -> Watchlist {
        let before = try await storage.watchlists(of: [owner])
        guard var list = before.first(where: { $0.name == name }) else {
            throw MoviesError.noSuchWatchlist(name)
        }
        list.remove(queries: queries, movieIDs: movieIDs)
        try await storage.save(list)
        try await unpinUnused(of: owner, before: before)
        didChange()
        return list
    }

    /// Deletes `owner`'s list `name` (looked for among `owner`'s alone, as for `remove`).
    public func delete(_ name: String, owner: Owner) async throws -> Bool {
        let before = try await storage.watchlists(of: [owner])
        guard before.contains(where: { $0.name == name }), try await storage.delete(name: name, owner: owner) else { return false }
        try await unpinUnused(of: owner, before: before)
        didChange()
        return true
    }

    /// Lets go of `owner`'s pins of what its lists in `before` needed and its lists now stored do
    /// not. Pins are per owner (another owner's pin of the same entry is theirs), so only
    /// `owner`'s lists are read: an edit takes no longer for what other users keep.
    private func unpinUnused(of owner: Owner, before: [Watchlist]) async throws {
        let after = try await storage.watchlists(of: [owner])
        var freed = WatchlistCacheKeys.keys(of: before, language: language).subtracting(WatchlistCacheKeys.keys(of: after, language: language))
        let keptMovies = Set(after.flatMap(\.movieIDs))
        let freedMovies = Set(before.flatMap(\.movieIDs)).subtracting(keptMovies)
        if !freedMovies.isEmpty {
            // A poster is pinned by the refresh that fetched its movie, at whatever size it was
            // configured with; two movies may share one, so a poster still shown is kept.
            let freedPosters = try await posterPaths(of: freedMovies).subtracting(posterPaths(of: keptMovies))
            for path in freedPosters {
                for size in PosterSize.allCases { freed.insert(CacheKey.poster(path: path, size: size)) }
            }
        }
        if !freed.isEmpty { try await responses.unpin(freed.sorted(), for: owner) }
    }

    /// The poster paths in the cached details of `movieIDs` (a movie not cached, or cached with a
    /// body that does not decode, has none to free).
    private func posterPaths(of movieIDs: Set<Int>) async throws -> Set<String> {
        var paths = Set<String>()
        for id in movieIDs {
            guard let entry = try await responses.response(forKey: CacheKey.movie(id: id, language: language)), entry.httpStatus == 200 else { continue }
            // The stored reply when it is current (an entry in memory keeps no body), else the body.
            let details = entry.reply(atVersion: WireCoding.version).flatMap { try? WireCoding.decode(MovieDetails.self, from: $0) }
                ?? (try? MovieDetailsDTO.decode(entry.body).toDomain())
            guard let path = details?.posterPath else { continue }
            paths.insert(path)
        }
        return paths
    }
}
