import FoundationEssentials
import MoviesDomain
import MoviesWire
import Testing
import WireJSON

/// A missing credential is said beside the state, not as a sixth state: clients that know only the
/// five states, and decode them strictly as `movies` 0.2.0 does, still read every `Status` reply.
@Suite struct RemoteStatusCompatibilityTests {
    /// The remote status as `movies` 0.2.0 decodes it (its `RemoteStatus`, unknown members ignored).
    struct ZeroTwoRemoteStatus: Decodable {
        enum State: String, Decodable { case unknown, online, offline, authRejected = "auth_rejected", rateLimited = "rate_limited" }
        var state: State
        var lastError: String?
        var consecutiveFailures: Int
    }

    static let states: [RemoteStatus.State] = [.unknown, .online, .offline, .authRejected, .rateLimited]

    @Test(arguments: states, [RemoteStatus.Credential.configured, .missing])
    func anOlderClientDecodesEveryReply(state: RemoteStatus.State, credential: RemoteStatus.Credential) throws {
        let json = try WireCoding.encode(RemoteStatus(state: state, credential: credential))
        let old = try WireCoding.decode(ZeroTwoRemoteStatus.self, from: json)
        #expect(old.state.rawValue == state.rawValue)
    }

    @Test func theMissingCredentialIsItsOwnMember() throws {
        let json = try WireCoding.encode(RemoteStatus(state: .unknown, credential: .missing))
        #expect(json["state"] == .string("unknown"))
        #expect(json["credential"] == .string("missing"))
        #expect(try WireCoding.decode(RemoteStatus.self, from: json).credential == .missing)
    }

    @Test func aReplyOfAnOlderDaemonSaysNothingOfTheCredential() throws {
        let old = try JSONValue.parse(Array(#"{"state":"auth_rejected","consecutiveFailures":1}"#.utf8))
        let status = try WireCoding.decode(RemoteStatus.self, from: old)
        #expect(status.state == .authRejected)
        #expect(status.credential == nil)
    }
}
