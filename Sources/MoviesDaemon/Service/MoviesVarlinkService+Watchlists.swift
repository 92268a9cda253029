import FoundationEssentials
import MoviesDomain
import MoviesWire
import Synchronization
import Varlink

extension MoviesVarlinkService {
    /// The watchlist dependencies, or `MethodNotImplemented` for a daemon built without them.
    private func watchlistDependencies(_ call: VarlinkCall) throws(VarlinkError) -> WatchlistDependencies {
        guard let watchlists = dependencies.watchlists else { throw VarlinkError.methodNotImplemented(call.method) }
        return watchlists
    }

    /// `Watchlists`: every watchlist.
    func watchlists(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let manage = try watchlistDependencies(call).manageWatchlists
        let lists = try await Self.mapped { try await manage.list() }
        return WireCoding.parameters(WatchlistsReply(watchlists: lists))
    }

    /// `AddToWatchlist` (authorised callers only: see the router).
    func addToWatchlist(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let manage = try watchlistDependencies(call).manageWatchlists
        let (edit, pages) = (try WatchlistEditCall(call), try ParameterReader(call.parameters).optionalInt("pages"))
        let list = try await Self.mapped { try await manage.add(to: edit.name, queries: edit.queries, movieIDs: edit.movieIDs, pages: pages) }
        return WireCoding.parameters(WatchlistReply(watchlist: list))
    }

    /// `RemoveFromWatchlist` (authorised callers only).
    func removeFromWatchlist(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let manage = try watchlistDependencies(call).manageWatchlists
        let edit = try WatchlistEditCall(call)
        let list = try await Self.mapped(watchlist: edit.name) { try await manage.remove(from: edit.name, queries: edit.queries, movieIDs: edit.movieIDs) }
        return WireCoding.parameters(WatchlistReply(watchlist: list))
    }

    /// `DeleteWatchlist` (authorised callers only).
    func deleteWatchlist(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let manage = try watchlistDependencies(call).manageWatchlists
        let name = try ParameterReader(call.parameters).requiredString("name")
        try await Self.mapped(watchlist: name) { try await manage.delete(name) }
        return [:]
    }

    /// `Refresh` (authorised callers only): runs (or joins) a refresh; with `more`, one reply per
    /// step with its progress, then the final reply: the last progress (its counts those of the
    /// summary) and the summary.
    func refresh(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let useCase = try watchlistDependencies(call).refreshWatchlists
        let reader = ParameterReader(call.parameters)
        let name = try reader.optionalString("watchlist")
        let mode: RefreshMode = try reader.optionalBool("all") == true ? .everything : .due
        let streaming = call.more
        let (steps, sink) = AsyncStream<RefreshProgress>.makeStream()
        let lastStep = Mutex<RefreshProgress?>(nil)
        async let forwarded: Void = {
            for await progress in steps { await replies.send(WireCoding.parameters(RefreshReply(progress: progress))) }
        }()
        let summary: Result<RefreshSummary, VarlinkError> = await {
            do {
                return .success(try await useCase.execute(watchlist: name, mode: mode) { progress in
                    lastStep.withLock { $0 = progress }
                    if streaming { sink.yield(progress) }
                })
            } catch {
                return .failure(Self.naming(VarlinkError.from(error, parameter: "watchlist"), watchlist: name))
            }
        }()
        sink.finish()
        await forwarded
        let finished = try summary.get()
        let last = lastStep.withLock { $0 }
        let ended = finished.done + finished.failed + finished.skipped + (finished.current ?? 0)
        let final = RefreshProgress(
            watchlist: last?.watchlist ?? name ?? "", step: last?.step ?? "", done: finished.done,
            failed: finished.failed, skipped: finished.skipped, total: max(last?.total ?? ended, ended), current: finished.current)
        return WireCoding.parameters(RefreshReply(progress: final, summary: finished))
    }

    private static func mapped<T: Sendable>(watchlist: String? = nil, _ body: () async throws -> T) async throws(VarlinkError) -> T {
        do {
            return try await body()
        } catch {
            throw naming(VarlinkError.from(error), watchlist: watchlist)
        }
    }

    /// `error` with the `watchlist` parameter set when it is a `NotFound` about the watchlist `name`.
    private static func naming(_ error: VarlinkError, watchlist name: String?) -> VarlinkError {
        guard let name, error.name == "\(MoviesInterface.name).NotFound" else { return error }
        var parameters = error.parameters
        parameters["watchlist"] = .string(name)
        return VarlinkError(name: error.name, parameters: parameters)
    }
}
