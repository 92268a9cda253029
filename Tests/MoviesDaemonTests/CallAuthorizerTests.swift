import Glibc
import Testing
@testable import MoviesDaemon
import Varlink

/// Who may call mutating methods.
@Suite struct CallAuthorizerTests {
    /// A uid and gid no account on a test machine uses.
    static let unusedID: UInt32 = 3_999_999

    @Test func aMissingPeerMayNotMutate() {
        #expect(!CallAuthorizer(daemonUID: 0, authorizedGID: 0).mayMutate(nil))
    }

    @Test func rootAndTheDaemonsOwnUIDMayMutate() {
        let authorizer = CallAuthorizer(daemonUID: 4242, authorizedGID: nil)
        #expect(authorizer.mayMutate(PeerCredentials(pid: 1, uid: 0, gid: CallAuthorizerTests.unusedID)))
        #expect(authorizer.mayMutate(PeerCredentials(pid: 1, uid: 4242, gid: CallAuthorizerTests.unusedID)))
        #expect(!authorizer.mayMutate(PeerCredentials(pid: 1, uid: 4243, gid: 4242)))
    }

    @Test func thePrimaryGroupCountsOnlyWhenAGroupIsConfigured() {
        let peer = PeerCredentials(pid: 1, uid: CallAuthorizerTests.unusedID, gid: 777)
        #expect(CallAuthorizer(daemonUID: 4242, authorizedGID: 777).mayMutate(peer))
        #expect(!CallAuthorizer(daemonUID: 4242, authorizedGID: 778).mayMutate(peer))
        #expect(!CallAuthorizer(daemonUID: 4242, authorizedGID: nil).mayMutate(peer))
    }

    @Test func anUnknownUserHasNoSupplementaryGroups() {
        #expect(CallAuthorizer.supplementaryGroups(ofUID: CallAuthorizerTests.unusedID, primaryGID: 5).isEmpty)
    }

    @Test func theGroupListIncludesThePrimaryGroup() {
        #expect(CallAuthorizer.supplementaryGroups(ofUID: 0, primaryGID: 0).contains(0))
    }

    @Test func aUserRecordLargerThanTheFirstBufferIsStillRead() {
        #expect(CallAuthorizer.supplementaryGroups(ofUID: 0, primaryGID: 0, bufferSize: 8).contains(0))
    }

    @Test(.enabled(if: CallAuthorizerTests.userWithSupplementaryGroup() != nil, "no user on this machine has a supplementary group"))
    func aSupplementaryGroupMemberMayMutate() throws {
        let member = try #require(CallAuthorizerTests.userWithSupplementaryGroup())
        let peer = PeerCredentials(pid: 1, uid: member.uid, gid: member.primaryGID)
        #expect(CallAuthorizer.supplementaryGroups(ofUID: member.uid, primaryGID: member.primaryGID).contains(member.supplementaryGID))
        #expect(CallAuthorizer(daemonUID: 4242, authorizedGID: member.supplementaryGID).mayMutate(peer))
        #expect(!CallAuthorizer(daemonUID: 4242, authorizedGID: CallAuthorizerTests.unusedID).mayMutate(peer))
    }

    /// A real user listed as a member of a group other than its primary one, from the group database.
    static func userWithSupplementaryGroup() -> (uid: UInt32, primaryGID: UInt32, supplementaryGID: UInt32)? {
        var candidates: [(name: String, gid: UInt32)] = []
        setgrent()
        while let group = getgrent() {
            var member = group.pointee.gr_mem
            while let name = member?.pointee {
                candidates.append((String(cString: name), group.pointee.gr_gid))
                member = member?.advanced(by: 1)
            }
        }
        endgrent()
        for candidate in candidates {
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            var buffer = [CChar](repeating: 0, count: 4096)
            guard getpwnam_r(candidate.name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { continue }
            if entry.pw_gid != candidate.gid { return (entry.pw_uid, entry.pw_gid, candidate.gid) }
        }
        return nil
    }
}
