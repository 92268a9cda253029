import FoundationEssentials
import MoviesDomain

/// Recent search queries over a `RecentQueriesStorage` (newest first, de-duplicated, capped).
public struct DefaultMoviesQueriesRepository: MoviesQueriesRepository {
    private let storage: any RecentQueriesStorage
    private let now: @Sendable () -> Date
    private let storageHealth: StorageHealthMonitor?

    /// Creates the repository. Failures are recorded in `storageHealth` (and logged once per
    /// cause) and thrown as typed `MoviesError`s with code `.storage`: the search use case does
    /// not fail a search for a query it could not remember, but the journal and `Status` say so.
    public init(storage: any RecentQueriesStorage, now: @escaping @Sendable () -> Date = { Date() }, storageHealth: StorageHealthMonitor? = nil) {
        self.storage = storage
        self.now = now
        self.storageHealth = storageHealth
    }

    /// At most `maxCount` of `user`'s recent queries, newest first.
    public func recentQueries(of user: LocalUser, maxCount: Int) async throws -> [MovieQuery] {
        do {
            return try await storage.recentQueries(of: user, maxCount: maxCount)
        } catch {
            throw storageHealth?.recordFailure(error, during: "reading recent queries", in: .state, operation: .read) ?? MoviesError.storage(wrapping: error)
        }
    }

    /// Records `query` as `user`'s most recent one.
    public func saveRecentQuery(_ query: MovieQuery, for user: LocalUser) async throws {
        do {
            try await storage.save(query, for: user, at: now())
        } catch {
            throw storageHealth?.recordFailure(error, during: "saving a recent query", in: .state) ?? MoviesError.storage(wrapping: error)
        }
    }

    /// Forgets `user`'s recent queries.
    public func clearRecentQueries(of user: LocalUser) async throws -> Int {
        do {
            return try await storage.clear(of: user)
        } catch {
            throw storageHealth?.recordFailure(error, during: "clearing recent queries", in: .state) ?? MoviesError.storage(wrapping: error)
        }
    }
}
