import FoundationEssentials
import MoviesDomain
import MoviesWire
import Varlink

/// The account methods: open to every caller, each on the caller's own TMDB account, or with
/// `system: true` on the system's (administrators only: `ManageAccountUseCase.owner(for:system:)`).
extension MoviesVarlinkService {
    /// The account use cases and the account the call means, or `NotSignedIn` for a daemon without
    /// a TMDB credential (`PermissionDenied` for a peer without credentials, or a caller asking for
    /// the system's account who may not use it).
    private func accountUseCase(_ call: VarlinkCall) throws(VarlinkError) -> (ManageAccountUseCase, Owner) {
        let caller = try requiredCaller(call)
        guard let account = dependencies.account else {
            throw MoviesError.notSignedIn("moviesd has no TMDB credential, so it cannot sign in to a TMDB account; configure one (README: token)").varlinkError()
        }
        let system = try ParameterReader(call).optionalBool("system") ?? false
        do {
            return (account, try account.owner(for: caller, system: system))
        } catch {
            throw error.varlinkError(parameter: "system")
        }
    }

    /// `AccountLogin`: signs in, or says where to approve the sign-in.
    func accountLogin(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let (account, owner) = try accountUseCase(call)
        return WireCoding.parameters(AccountLoginReply(try await Self.accountMapped { try await account.login(owner) }))
    }

    /// `AccountLogout`: ends the session; the outbox is kept.
    func accountLogout(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let (account, owner) = try accountUseCase(call)
        return WireCoding.parameters(AccountLogoutReply(pending: try await Self.accountMapped { try await account.logout(owner) }))
    }

    /// `AccountEdit(list, movieId, on, rating, waitSeconds)`: records the edit and its outbox entry
    /// at once, then waits for TMDB at most `waitSeconds` (default 2).
    func accountEdit(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let (account, owner) = try accountUseCase(call)
        let reader = ParameterReader(call)
        guard let list = AccountList(rawValue: try reader.requiredString("list")) else { throw VarlinkError.invalidParameter("list") }
        let movieID = try reader.requiredInt("movieId")
        let change: AccountEdit.Change
        switch list {
        case .watchlist, .favorite:
            guard let on = try reader.optionalBool("on") else { throw VarlinkError.invalidParameter("on") }
            change = list == .watchlist ? .watchlist(on) : .favorite(on)
        case .rated:
            change = .rating(try reader.optionalDouble("rating"))
        }
        let wait = try reader.optionalDouble("waitSeconds")
        let result = try await Self.accountMapped(parameter: "movieId") {
            try await account.apply(try AccountEdit(movieID: movieID, change: change), waitSeconds: wait, of: owner)
        }
        return WireCoding.parameters(AccountEditReply(result))
    }

    /// `Account`: the account's lists with unconfirmed edits applied.
    func account(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let (account, owner) = try accountUseCase(call)
        return WireCoding.parameters(AccountReply(try await Self.accountMapped { try await account.view(owner) }))
    }

    /// `Pending(dismissRejected)`: the outbox; with `dismissRejected`, rejected entries are
    /// forgotten first.
    func pending(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let (account, owner) = try accountUseCase(call)
        let dismiss = try ParameterReader(call).optionalBool("dismissRejected") ?? false
        let reply = try await Self.accountMapped {
            if dismiss { _ = try await account.dismissRejected(owner) }
            return PendingReply(entries: try await account.pending(owner), sync: try await account.status(owner))
        }
        return WireCoding.parameters(reply)
    }

    /// `Sync(waitSeconds)`: sends and pulls now; with `waitSeconds`, until settled, blocked or out of time.
    func sync(_ call: VarlinkCall, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        let (account, owner) = try accountUseCase(call)
        let wait = try ParameterReader(call).optionalDouble("waitSeconds")
        return WireCoding.parameters(SyncReply(sync: try await Self.accountMapped(parameter: "waitSeconds") { try await account.sync(waitSeconds: wait, of: owner) }))
    }

    private static func accountMapped<T: Sendable>(parameter: String = "parameters", _ body: () async throws -> T) async throws(VarlinkError) -> T {
        do {
            return try await body()
        } catch {
            throw VarlinkError.from(error, parameter: parameter)
        }
    }
}
