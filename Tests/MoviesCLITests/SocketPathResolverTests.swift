@testable import MoviesCLI
import Testing

@Suite struct SocketPathResolverTests {
    static let system = "/run/moviesd/io.moviesd.Movies"

    func resolver(_ environment: [String: String], uid: UInt32 = 1000, existing: Set<String> = []) -> SocketPathResolver {
        SocketPathResolver(environment: environment, uid: uid, fileExists: { existing.contains($0) })
    }

    @Test func explicitWins() {
        let both: Set = [Self.system, "/x/moviesd/io.moviesd.Movies"]
        #expect(resolver(["MOVIESD_SOCKET": "/env", "XDG_RUNTIME_DIR": "/x"], existing: both).choose(explicit: "/cli")
            == DaemonSocket(path: "/cli", kind: .other, source: .option))
    }

    @Test func environmentBeforeTheSockets() {
        let user = "/run/user/1000/moviesd/io.moviesd.Movies"
        #expect(resolver(["MOVIESD_SOCKET": "/env"], uid: 0, existing: [Self.system]).choose(explicit: nil)
            == DaemonSocket(path: "/env", kind: .other, source: .environment))
        // A path given by hand is still named for whose it is.
        #expect(resolver(["MOVIESD_SOCKET": user], existing: [Self.system]).choose(explicit: nil)
            == DaemonSocket(path: user, kind: .user, source: .environment))
        #expect(resolver([:]).choose(explicit: Self.system).kind == .system)
        // An empty value is no choice.
        #expect(resolver(["MOVIESD_SOCKET": ""]).choose(explicit: "").source == .found)
    }

    @Test func theUsersOwnDaemonBeforeTheSystems() {
        let both = resolver(["XDG_RUNTIME_DIR": "/x"], existing: [Self.system, "/x/moviesd/io.moviesd.Movies"])
        #expect(both.choose(explicit: nil) == DaemonSocket(path: "/x/moviesd/io.moviesd.Movies", kind: .user, source: .found))
        // Without XDG_RUNTIME_DIR (a `su`, a cron job), the runtime directory logind makes.
        let fallback = resolver([:], uid: 1000, existing: ["/run/user/1000/moviesd/io.moviesd.Movies"])
        #expect(fallback.resolve(explicit: nil) == "/run/user/1000/moviesd/io.moviesd.Movies")
        // A relative or empty XDG_RUNTIME_DIR is ignored, as the XDG specification says.
        for runtime in ["", "run/user/7"] {
            #expect(resolver(["XDG_RUNTIME_DIR": runtime], uid: 7).userPath == "/run/user/7/moviesd/io.moviesd.Movies")
        }
        #expect(resolver(["XDG_RUNTIME_DIR": "/x/"]).userPath == "/x/moviesd/io.moviesd.Movies")
    }

    @Test func theSystemsWhenTheUserHasNoDaemon() {
        let onlySystem = resolver(["XDG_RUNTIME_DIR": "/x"], existing: [Self.system])
        #expect(onlySystem.choose(explicit: nil) == DaemonSocket(path: Self.system, kind: .system, source: .found))
        // Neither socket there: the system's, whose error says how to start either.
        #expect(resolver(["XDG_RUNTIME_DIR": "/x"]).resolve(explicit: nil) == Self.system)
    }

    @Test func rootFollowsTheSameRule() {
        #expect(resolver([:], uid: 0).resolve(explicit: nil) == Self.system)
        #expect(resolver([:], uid: 0, existing: [Self.system]).resolve(explicit: nil) == Self.system)
        let rootsOwn = resolver(["XDG_RUNTIME_DIR": "/run/user/0"], uid: 0, existing: [Self.system, "/run/user/0/moviesd/io.moviesd.Movies"])
        #expect(rootsOwn.choose(explicit: nil).kind == .user)
    }

    @Test func theStatusLineSaysWhoseDaemonItIs() {
        #expect(DaemonSocket(path: Self.system, kind: .system, source: .found).description == "system service, \(Self.system)")
        #expect(DaemonSocket(path: "/x/moviesd/io.moviesd.Movies", kind: .user, source: .found).description
            == "user service (yours), /x/moviesd/io.moviesd.Movies")
        #expect(DaemonSocket(path: "/tmp/m.sock", kind: .other, source: .option).description == "the daemon on the socket, /tmp/m.sock (--socket)")
        #expect(DaemonSocket(path: Self.system, kind: .system, source: .environment).description == "system service, \(Self.system) (MOVIESD_SOCKET)")
    }
}
