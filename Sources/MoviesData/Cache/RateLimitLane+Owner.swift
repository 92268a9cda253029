import MoviesDomain
import Networking

extension RateLimitLane {
    /// The lane of `owner`'s work: its uid's, or the system's.
    public init(owner: Owner, priority: Priority) {
        self.init(uid: owner.user?.uid, priority: priority)
    }
}
