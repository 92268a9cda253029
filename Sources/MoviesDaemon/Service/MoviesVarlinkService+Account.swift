import FoundationEssentials
import MoviesDomain
import MoviesWire
import Varlink

/// The account methods: open to every caller, each on the account of its call's scope
/// (`OwnerScope.account`): the caller's own, or with `system: true` the system's (administrators only).
extension MoviesVarlinkService {
    /// Why a daemon without a TMDB credential cannot sign in: where to configure one, then to
    /// sign in again (which is what just failed; the client adds no "sign in" advice to it).
    static let noCredentialReason = "moviesd has no TMDB credential, so it cannot sign in to a TMDB account: \(UnconfiguredRemote.remedy), and run 'movies account login' again"

    /// The reply `body` makes with the account use cases (`NotSignedIn` for a daemon without a
    /// TMDB credential), its errors mapped to Varlink's (`parameter` the one an error names).
    private func accountReply<Reply: Encodable & Sendable>(
        parameter: String = "parameters", _ body: (ManageAccountUseCase) async throws -> Reply
    ) async throws(VarlinkError) -> [String: JSONValue] {
        guard let account = dependencies.account else {
            throw MoviesError.notSignedIn(Self.noCredentialReason).varlinkError()
        }
        return WireCoding.parameters(try await Self.mapped(parameter: parameter) { try await body(account) })
    }

    /// `AccountLogin`: signs in, or says where to approve the sign-in.
    func accountLogin(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        try await accountReply { AccountLoginReply(try await $0.login(scope)) }
    }

    /// `AccountLogout`: ends the session; the outbox is kept.
    func accountLogout(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        try await accountReply { AccountLogoutReply(pending: try await $0.logout(scope)) }
    }

    /// `AccountEdit(list, movieId, on, rating, waitSeconds)`: records the edit and its outbox entry
    /// at once, then waits for TMDB at most `waitSeconds` (default 2).
    func accountEdit(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        try await accountReply(parameter: "movieId") { account in
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
            return AccountEditReply(try await account.apply(try AccountEdit(movieID: movieID, change: change), waitSeconds: wait, in: scope))
        }
    }

    /// `Account`: the account's lists with unconfirmed edits applied.
    func account(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        try await accountReply { AccountReply(try await $0.view(scope)) }
    }

    /// `Pending(dismissRejected)`: the outbox; with `dismissRejected`, rejected entries are
    /// forgotten first.
    func pending(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        try await accountReply { account in
            if try ParameterReader(call).optionalBool("dismissRejected") == true { _ = try await account.dismissRejected(scope) }
            return PendingReply(entries: try await account.pending(scope), sync: try await account.status(scope))
        }
    }

    /// `Sync(waitSeconds)`: sends and pulls now; with `waitSeconds`, until settled, blocked or out of time.
    func sync(_ call: VarlinkCall, _ scope: OwnerScope, replies: VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue] {
        try await accountReply(parameter: "waitSeconds") { SyncReply(sync: try await $0.sync(waitSeconds: try ParameterReader(call).optionalDouble("waitSeconds"), in: scope)) }
    }
}
