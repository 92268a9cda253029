@testable import MoviesCLI
import Testing

@Suite struct SocketOwnerTests {
    /// Paths this user may look at, and their owners; everything else is refused (`stat` fails).
    func owner(_ visible: [String: UInt32]) -> SocketOwner {
        SocketOwner(ownerOf: { visible[$0] }, nameOf: { $0 == 1000 ? "alice" : "uid \($0)" })
    }

    @Test func anotherUsersRuntimeDirectoryNamesThatUser() {
        // bob (1001) cannot search alice's 0700 /run/user/1000: the nearest visible part is hers.
        let fileSystem = owner(["/run/user/1000": 1000, "/run/user": 0, "/run": 0])
        #expect(fileSystem.otherUser(of: "/run/user/1000/moviesd/io.moviesd.Movies", callerUID: 1001) == "alice")
        let unnamed = owner(["/run/user/1002/moviesd": 1002])
        #expect(unnamed.otherUser(of: "/run/user/1002/moviesd/io.moviesd.Movies", callerUID: 1001) == "uid 1002")
    }

    @Test func rootsAndOnesOwnAreNoOtherUsers() {
        // The system socket's directory is root's: a plain permission problem, not a user service.
        let system = owner(["/run/moviesd/io.moviesd.Movies": 0])
        #expect(system.otherUser(of: "/run/moviesd/io.moviesd.Movies", callerUID: 1001) == nil)
        let own = owner(["/run/user/1001/moviesd/io.moviesd.Movies": 1001])
        #expect(own.otherUser(of: "/run/user/1001/moviesd/io.moviesd.Movies", callerUID: 1001) == nil)
        #expect(owner([:]).otherUser(of: "/run/user/1000/moviesd/io.moviesd.Movies", callerUID: 1001) == nil)
        #expect(owner([:]).otherUser(of: "relative.sock", callerUID: 1001) == nil)
    }

    @Test func aSocketClosedToOthersIsItsOwnersAlone() {
        let modes: [String: UInt32] = ["/run/user/1000/moviesd/io.moviesd.Movies": 0o600, "/tmp/shared.sock": 0o666, "/run/moviesd/io.moviesd.Movies": 0o666]
        let owners: [String: UInt32] = ["/run/user/1000/moviesd/io.moviesd.Movies": 1000, "/tmp/shared.sock": 1000, "/run/moviesd/io.moviesd.Movies": 0]
        let fileSystem = SocketOwner(ownerOf: { owners[$0] }, nameOf: { $0 == 1000 ? "alice" : "uid \($0)" }, modeOf: { modes[$0] })
        // Root got through alice's 0600 socket and was refused: her daemon serves her alone.
        #expect(fileSystem.privateOwner(of: "/run/user/1000/moviesd/io.moviesd.Movies", callerUID: 0) == "alice")
        #expect(fileSystem.privateOwner(of: "/run/user/1000/moviesd/io.moviesd.Movies", callerUID: 1000) == nil, "her own")
        // A socket open to others: a refusal there is about the call, not the daemon.
        #expect(fileSystem.privateOwner(of: "/tmp/shared.sock", callerUID: 0) == nil)
        #expect(fileSystem.privateOwner(of: "/run/moviesd/io.moviesd.Movies", callerUID: 1001) == nil)
        #expect(fileSystem.privateOwner(of: "/nowhere", callerUID: 0) == nil)
    }

    @Test func theErrorSaysWhoseItIsAndWhatToDo() {
        let error = ClientError.anotherUsersDaemon(socketPath: "/run/user/1000/moviesd/io.moviesd.Movies", owner: "alice")
        #expect(error.exitCode == .noPermission)
        #expect(error.errorName == "org.varlink.service.PermissionDenied")
        #expect(error.message.contains("alice's own moviesd"))
        #expect(error.message.contains("--socket /run/moviesd/io.moviesd.Movies"))
        #expect(error.message.contains("systemctl --user enable --now moviesd.socket"))
        #expect(!error.message.contains("admin group"), "no group lets another user in")
    }
}
