import Glibc
import MoviesDaemon
import Testing

/// Which peers a daemon cannot name: in a user service's namespace (`PrivateUsers=yes` maps the
/// user alone), every other uid shows as the overflow uid; in the initial namespace, none.
@Suite struct UserNamespaceTests {
    @Test func aUserServicesNamespaceNamesItsUserAlone() {
        // /proc/self/uid_map of a user service with PrivateUsers=yes (systemd 252 and 257).
        let namespace = UserNamespace(uidMap: "      1001       1001          1\n", overflowUID: 65534)
        #expect(namespace.mappedUIDs == [1001...1001])
        #expect(namespace.unmappedPeerUID == 65534)
    }

    @Test func theInitialNamespaceNamesEveryone() {
        let namespace = UserNamespace(uidMap: "         0          0 4294967295\n", overflowUID: 65534)
        #expect(namespace.unmappedPeerUID == nil, "65534 is nobody, a user like any other")
    }

    @Test func aSystemServicesPrivateUsersMapsRootAndItsUser() {
        // PrivateUsers=yes for a system service: root and the service's user; the overflow uid is
        // what the kernel was told (sysctl kernel.overflowuid).
        let namespace = UserNamespace(uidMap: "0 0 1\n998 998 1\n", overflowUID: 65000)
        #expect(namespace.unmappedPeerUID == 65000)
        #expect(UserNamespace(uidMap: "0 0 1\n65000 65000 1\n", overflowUID: 65000).unmappedPeerUID == nil)
    }

    @Test func linesThatDoNotParseAreSkipped() {
        #expect(UserNamespace(uidMap: "garbage\n1 2\n5 5 0\n\n", overflowUID: 65534).mappedUIDs.isEmpty)
    }

    @Test func theTestsOwnNamespaceIsReadable() {
        // Whatever namespace the suite runs in, its own uid is in it.
        let namespace = UserNamespace.current()
        #expect(namespace.mappedUIDs.contains { $0.contains(UInt64(getuid())) })
    }
}
