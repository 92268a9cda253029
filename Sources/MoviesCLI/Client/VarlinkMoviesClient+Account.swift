import MoviesDomain
import MoviesWire
import Varlink

extension VarlinkMoviesClient {
    /// Calls `AccountLogin`.
    public func accountLogin() throws(ClientError) -> ClientReply<AccountLoginReply> {
        try single("AccountLogin", [:], as: AccountLoginReply.self)
    }

    /// Calls `AccountLogout`.
    public func accountLogout() throws(ClientError) -> ClientReply<AccountLogoutReply> {
        try single("AccountLogout", [:], as: AccountLogoutReply.self)
    }

    /// Calls `AccountEdit`.
    public func accountEdit(_ edit: AccountEdit, waitSeconds: Double?) throws(ClientError) -> ClientReply<AccountEditReply> {
        var arguments: [String: JSONValue] = ["list": .string(edit.list.rawValue), "movieId": .int(Int64(edit.movieID))]
        switch edit.change {
        case .watchlist(let on), .favorite(let on): arguments["on"] = .bool(on)
        case .rating(let value?): arguments["rating"] = .double(value)
        case .rating(nil): break
        }
        if let waitSeconds { arguments["waitSeconds"] = .double(waitSeconds) }
        return try single("AccountEdit", arguments, as: AccountEditReply.self)
    }

    /// Calls `Account`.
    public func account() throws(ClientError) -> ClientReply<AccountReply> {
        try single("Account", [:], as: AccountReply.self)
    }

    /// Calls `Pending`.
    public func pending(dismissRejected: Bool) throws(ClientError) -> ClientReply<PendingReply> {
        try single("Pending", dismissRejected ? ["dismissRejected": .bool(true)] : [:], as: PendingReply.self)
    }

    /// Calls `Sync`.
    public func sync(waitSeconds: Double?) throws(ClientError) -> ClientReply<SyncReply> {
        try single("Sync", waitSeconds.map { ["waitSeconds": .double($0)] } ?? [:], as: SyncReply.self)
    }
}
