import FoundationEssentials
import MoviesDomain
import Synchronization
import Varlink

extension MoviesVarlinkService {
    /// `Watchlists`, `AddToWatchlist`, `RemoveFromWatchlist`, `DeleteWatchlist` and `Refresh`;
    /// every one but `Watchlists` is for authorised callers only.
    func handleWatchlists(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        guard let watchlists = dependencies.watchlists else { throw VarlinkError.methodNotImplemented(call.method) }
        if call.methodName != "Watchlists", !authorizer.mayMutate(call.peer) { throw VarlinkError.permissionDenied }
        let manage = watchlists.manageWatchlists
        switch call.methodName {
        case "Watchlists":
            _ = try ParameterReader(call.parameters, allowed: [])
            let lists = try await Self.mapped { try await manage.list() }
            return ["watchlists": WireValue.encode(lists)]
        case "AddToWatchlist":
            let reader = try ParameterReader(call.parameters, allowed: ["name", "queries", "movieIds", "pages"])
            let name = try reader.requiredString("name")
            let queries = try reader.strings("queries")
            let ids = try reader.ints("movieIds")
            let pages = try reader.optionalInt("pages")
            let list = try await Self.mapped { try await manage.add(to: name, queries: queries, movieIDs: ids, pages: pages) }
            return ["watchlist": WireValue.encode(list)]
        case "RemoveFromWatchlist":
            let reader = try ParameterReader(call.parameters, allowed: ["name", "queries", "movieIds"])
            let name = try reader.requiredString("name")
            let queries = try reader.strings("queries")
            let ids = try reader.ints("movieIds")
            let list = try await Self.mapped(watchlist: name) { try await manage.remove(from: name, queries: queries, movieIDs: ids) }
            return ["watchlist": WireValue.encode(list)]
        case "DeleteWatchlist":
            let reader = try ParameterReader(call.parameters, allowed: ["name"])
            let name = try reader.requiredString("name")
            try await Self.mapped(watchlist: name) { try await manage.delete(name) }
            return [:]
        default:
            return try await refresh(call, replies: replies, useCase: watchlists.refreshWatchlists)
        }
    }

    /// Runs (or joins) a refresh; with `more`, one reply per step with its progress, then the final
    /// reply: the last progress (its counts those of the summary) and the summary.
    private func refresh(_ call: VarlinkCall, replies: VarlinkReplyWriter, useCase: RefreshWatchlistsUseCase) async throws(VarlinkError) -> [String: JSONValue] {
        let reader = try ParameterReader(call.parameters, allowed: ["watchlist"])
        let name = try reader.optionalString("watchlist")
        let streaming = call.more
        let (steps, sink) = AsyncStream<RefreshProgress>.makeStream()
        let lastStep = Mutex<RefreshProgress?>(nil)
        async let forwarded: Void = {
            for await progress in steps { await replies.send(["progress": WireValue.encode(progress)]) }
        }()
        let summary: Result<RefreshSummary, VarlinkError> = await {
            do {
                return .success(try await useCase.execute(watchlist: name) { progress in
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
        let ended = finished.done + finished.failed + finished.skipped
        let final = RefreshProgress(
            watchlist: last?.watchlist ?? name ?? "", step: last?.step ?? "", done: finished.done,
            failed: finished.failed, skipped: finished.skipped, total: max(last?.total ?? ended, ended))
        return ["progress": WireValue.encode(final), "summary": WireValue.encode(finished)]
    }

    /// `Status`'s refresh fields: `lastRefresh` and `refresh`.
    func refreshStatusFields() async -> [String: JSONValue] {
        guard let watchlists = dependencies.watchlists else { return [:] }
        let status = await watchlists.refreshStatus()
        var fields: [String: JSONValue] = ["refresh": WireValue.encode(status)]
        if let last = status.last { fields["lastRefresh"] = .string(last.finishedAt.ISO8601Format()) }
        return fields
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
