@testable import MoviesCLI
import Testing

@Suite struct SocketPathResolverTests {
    func resolver(_ environment: [String: String], uid: UInt32 = 1000, existing: Set<String> = []) -> SocketPathResolver {
        SocketPathResolver(environment: environment, uid: uid, fileExists: { existing.contains($0) })
    }

    @Test func explicitWins() {
        #expect(resolver(["MOVIESD_SOCKET": "/env"]).resolve(explicit: "/cli") == "/cli")
    }

    @Test func environmentBeforeDefaults() {
        #expect(resolver(["MOVIESD_SOCKET": "/env"], uid: 0).resolve(explicit: nil) == "/env")
    }

    @Test func rootUsesTheSystemSocket() {
        #expect(resolver([:], uid: 0).resolve(explicit: nil) == "/run/moviesd/io.moviesd.Movies")
    }

    @Test func userUsesXDGRuntimeDir() {
        #expect(resolver(["XDG_RUNTIME_DIR": "/run/user/42"]).resolve(explicit: nil) == "/run/user/42/moviesd/io.moviesd.Movies")
        #expect(resolver([:], uid: 1000).resolve(explicit: nil) == "/run/user/1000/moviesd/io.moviesd.Movies")
    }

    @Test func userFallsBackToTheSystemSocketWhenOnlyItExists() {
        let onlySystem = resolver(["XDG_RUNTIME_DIR": "/x"], existing: ["/run/moviesd/io.moviesd.Movies"])
        #expect(onlySystem.resolve(explicit: nil) == "/run/moviesd/io.moviesd.Movies")
        let both = resolver(["XDG_RUNTIME_DIR": "/x"], existing: ["/run/moviesd/io.moviesd.Movies", "/x/moviesd/io.moviesd.Movies"])
        #expect(both.resolve(explicit: nil) == "/x/moviesd/io.moviesd.Movies")
    }
}
