import MoviesDomain
import Varlink

extension MoviesVarlinkService {
    /// The caller of `call` as the kernel names them (`SO_PEERCRED`), with whether they administer
    /// the daemon (root, its own user, the admin group); `nil` without credentials.
    func caller(_ call: VarlinkCall) -> Caller? {
        call.peer.map { Caller(user: LocalUser(uid: $0.uid), isAdministrator: authorizer.mayMutate($0)) }
    }

    /// The caller, or `PermissionDenied` for a peer without credentials (it owns nothing).
    func requiredCaller(_ call: VarlinkCall) throws(VarlinkError) -> Caller {
        guard let caller = caller(call) else { throw VarlinkError.permissionDenied }
        return caller
    }

    /// The owner a watchlist call names: `system: true` the system's, `owner: UID` that user's
    /// (root's business only: the use case refuses it to others), `system: false` the caller's
    /// own; neither: `nil`, and the use case decides by the name.
    static func requestedOwner(_ call: VarlinkCall, caller: Caller) throws(VarlinkError) -> Owner? {
        let reader = ParameterReader(call)
        let system = try reader.optionalBool("system")
        guard let uid = try reader.optionalInt("owner") else {
            return system.map { $0 ? .system : caller.personal }
        }
        guard system != true, let user = UInt32(exactly: uid) else { throw VarlinkError.invalidParameter("owner") }
        return .user(LocalUser(uid: user))
    }
}
