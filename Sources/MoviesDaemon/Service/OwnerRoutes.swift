import MoviesDomain
import Varlink

/// A method's work, given the owners its call may touch (resolved by the gate before it runs).
typealias OwnerScopedResponder = @Sendable (VarlinkCall, OwnerScope, VarlinkReplyWriter) async throws(VarlinkError) -> [String: JSONValue]

/// The service's routing table: every method registered with its access level, what it
/// may touch (`OwnerReach`) and its deadline. The router checks the call (parameters, access,
/// middleware); then the owner gate resolves its `OwnerScope` once and the method gets it. A
/// method cannot be registered without saying what it may touch, nor run without its scope.
struct OwnerRoutes {
    /// The Varlink router the methods are registered with (its middleware added before).
    private(set) var router: VarlinkRouter
    /// What each method may touch, as registered.
    private(set) var reaches: [String: OwnerReach] = [:]
    /// Decides who administers the daemon, for the gate.
    let authorizer: CallAuthorizer

    /// Registers `method`: who may call it, what it may touch, its deadline (`nil`: the server's),
    /// the reply it can give from memory (`VarlinkRouter.on`), and its work.
    mutating func on(
        _ method: String, access: VarlinkAccess, owners reach: OwnerReach, deadlineSeconds: Int? = nil,
        answerAtOnce: (@Sendable (VarlinkCall) -> VarlinkPreparedReply?)? = nil, _ work: @escaping OwnerScopedResponder
    ) {
        reaches[method] = reach
        let gate = OwnerGate { [authorizer] uid, gid in authorizer.mayMutate(PeerCredentials(pid: 0, uid: uid, gid: gid)) }
        router.on(method, access: access, deadlineSeconds: deadlineSeconds, answerAtOnce: answerAtOnce) { call, replies throws(VarlinkError) in
            try await work(call, try Self.scope(of: call, reach: reach, gate: gate), replies)
        }
    }

    /// What `call` may touch: the gate's answer for its peer's credentials (`SO_PEERCRED`) and the
    /// owner it names with the parameters the interface declares for its method (`system`,
    /// `owner`, `allUsers`; the router refuses any other). `owner` beside `system: true`, or out
    /// of range, is an `InvalidParameter`.
    private static func scope(of call: VarlinkCall, reach: OwnerReach, gate: OwnerGate) throws(VarlinkError) -> OwnerScope {
        let reader = ParameterReader(call)
        let (system, uid, allUsers) = (try reader.optionalBool("system"), try reader.optionalInt("owner"), try reader.optionalBool("allUsers"))
        let owner = try uid.map { uid throws(VarlinkError) in
            guard system != true, let user = UInt32(exactly: uid) else { throw VarlinkError.invalidParameter("owner") }
            return LocalUser(uid: user)
        }
        do {
            return try gate.scope(of: call.peer.map { ($0.uid, $0.gid) }, system: system, owner: owner, allUsers: allUsers ?? false, reach: reach)
        } catch {
            throw error.varlinkError()
        }
    }
}
