/// The remote's health as seen from request outcomes.
public protocol RemoteStatusRepository: Sendable {
    /// The current remote status.
    func remoteStatus() async -> RemoteStatus
}
