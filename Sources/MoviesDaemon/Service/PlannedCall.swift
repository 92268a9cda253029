import MoviesDomain
import Varlink

/// A `Search` or `Movie` call as its stage on the event loop left it for its task (handed on in
/// ``VarlinkCall/carried``): its parameters read once, and, when memory held its entry, that
/// lookup and the plan made from it. The task reads the database only when memory did not.
struct PlannedCall<Parameters: Sendable>: Sendable {
    /// The call's parameters, checked.
    var parameters: Parameters
    /// The entry memory held (`nil`: not in memory; the task looks it up).
    var lookup: CacheLookup?
    /// The plan made from `lookup`.
    var plan: FetchPlan?

    /// What `call`'s stage on the loop handed on, else its parameters read now (a call that did not
    /// pass that stage, or whose parameters it could not read: `read` throws the caller's error).
    static func of(_ call: VarlinkCall, read: () throws(VarlinkError) -> Parameters) throws(VarlinkError) -> PlannedCall {
        if let planned = call.carried.value as? PlannedCall { return planned }
        return PlannedCall(parameters: try read())
    }
}
