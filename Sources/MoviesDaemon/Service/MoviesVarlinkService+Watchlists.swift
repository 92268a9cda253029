import FoundationEssentials
import MoviesDomain
import MoviesWire
import Synchronization
import Varlink

/// The watchlist methods: open to every caller, each acting on the lists its call's scope holds
/// (`OwnerScope`): the system's for administrators, the caller's own, anyone's for root.
extension MoviesVarlinkService {
    /// The watchlist dependencies, or `MethodNotImplemented` for a daemon built without them.
    private func watchlistDependencies(_ call: VarlinkCall) throws(VarlinkError) -> WatchlistDependencies {
        guard let watchlists = dependencies.watchlists else { throw VarlinkError.methodNotImplemented(call.method) }
        return watchlists
    }

    /// `Watchlists(allUsers)`: every system list and the caller's own; root's `allUsers` adds
    /// every user's. A caller without credentials sees the system's.
    func watchlists(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let manage = try watchlistDependencies(call).manageWatchlists
        let lists = try await Self.mapped { try await manage.list(in: scope) }
        return WireCoding.parameters(WatchlistsReply(watchlists: lists))
    }

    /// `AddToWatchlist`: to the caller's list of that name (or the system's: see the use case).
    func addToWatchlist(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let manage = try watchlistDependencies(call).manageWatchlists
        let (edit, pages) = (try WatchlistEditCall(call), try ParameterReader(call).optionalInt("pages"))
        let list = try await Self.mapped {
            try await manage.add(to: edit.name, in: scope, queries: edit.queries, movieIDs: edit.movieIDs, pages: pages)
        }
        return WireCoding.parameters(WatchlistReply(watchlist: list))
    }

    /// `RemoveFromWatchlist`.
    func removeFromWatchlist(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let manage = try watchlistDependencies(call).manageWatchlists
        let edit = try WatchlistEditCall(call)
        let list = try await Self.mapped(watchlist: edit.name) {
            try await manage.remove(from: edit.name, in: scope, queries: edit.queries, movieIDs: edit.movieIDs)
        }
        return WireCoding.parameters(WatchlistReply(watchlist: list))
    }

    /// `DeleteWatchlist`.
    func deleteWatchlist(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let manage = try watchlistDependencies(call).manageWatchlists
        let name = try ParameterReader(call).requiredString("name")
        try await Self.mapped(watchlist: name) { try await manage.delete(name, in: scope) }
        return [:]
    }

    /// `Refresh`: runs (or joins) a refresh of the lists the call's scope manages (`refreshTarget`);
    /// with `more`, one reply per step with its progress, then the final reply: the last progress
    /// (its counts those of the summary) and the summary.
    func refresh(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let dependencies = try watchlistDependencies(call)
        let reader = ParameterReader(call)
        let name = try reader.optionalString("watchlist")
        let mode: RefreshMode = try reader.optionalBool("all") == true ? .everything : .due
        let target = try await Self.mapped(parameter: "watchlist", watchlist: name) {
            try await dependencies.manageWatchlists.refreshTarget(name, in: scope)
        }
        let streaming = call.more
        let (steps, sink) = AsyncStream<RefreshProgress>.makeStream()
        let lastStep = Mutex<RefreshProgress?>(nil)
        async let forwarded: Void = {
            for await progress in steps { await replies.send(WireCoding.parameters(RefreshReply(progress: progress))) }
        }()
        let useCase = dependencies.refreshWatchlists
        let summary: Result<RefreshSummary, VarlinkError> = await {
            do {
                return .success(try await useCase.execute(target, mode: mode) { progress in
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

    /// `body`'s value, its errors mapped to Varlink's (`parameter` the one an error names; a
    /// `NotFound` names the `watchlist` when given).
    static func mapped<T: Sendable>(parameter: String = "parameters", watchlist: String? = nil, _ body: () async throws -> T) async throws(VarlinkError) -> T {
        do {
            return try await body()
        } catch {
            throw naming(VarlinkError.from(error, parameter: parameter), watchlist: watchlist)
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
