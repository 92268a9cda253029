// swift-tools-version:6.0
// moviesd — an offline-first sync daemon for the TMDB API.
// Layering (arrows point inward): Presentation → Domain ← Data. The target graph below enforces it.
import PackageDescription

let package = Package(
    name: "moviesd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "moviesd", targets: ["moviesd"]),
        .executable(name: "movies", targets: ["movies"]),
        .executable(name: "tmdb-stub", targets: ["tmdb-stub"]),
        .executable(name: "moviesd-bench", targets: ["moviesd-bench"]),
    ],
    targets: [
        // Domain: entities, use cases, repository protocols. FoundationEssentials only.
        .target(name: "MoviesDomain"),

        // The few libcurl calls of the HTTP transport, resolved at run time from libcurl.so.4 (the
        // library FoundationNetworking loads): no libcurl headers or -dev package to build. Its
        // release build uses glibc's checked string functions, as Debian's C builds do.
        .target(name: "CCurl", cSettings: [.define("_FORTIFY_SOURCE", to: "2", .when(configuration: .release))]),

        // The few zlib calls of the gzip reader and writer, resolved at run time from libz.so.1 (as
        // CCurl does for libcurl): no zlib headers or -dev package to build.
        .target(name: "CZlib"),

        // Infrastructure: streaming gzip (read line by line, write) over CZlib.
        .target(name: "Gzip", dependencies: ["CZlib"]),

        // Infrastructure: generic HTTP over libcurl's multi interface, rate limiting, retries.
        .target(name: "Networking", dependencies: ["CCurl", "SystemSupport"]),

        // The wire schema: the reply types of io.moviesd.Movies and the codec both sides use.
        .target(name: "MoviesWire", dependencies: ["MoviesDomain", "WireJSON"]),

        // Data: cached-then-remote repositories, TMDB endpoints and DTOs, storage ports.
        .target(name: "MoviesData", dependencies: ["MoviesDomain", "MoviesWire", "Networking", "SystemSupport", "Gzip"]),

        // Storage: the system libsqlite3 and the SQLite adapters of Data's storage ports.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "SQLiteStore", dependencies: ["CSQLite", "MoviesDomain", "MoviesData", "SystemSupport"]),

        // Infrastructure: the one command-line option parser of all four programs. No Foundation.
        .target(name: "CommandLineSupport"),

        // Infrastructure: the one monotonic clock, back-off, wake signal, native-thread wrapper and
        // deadline timer. Glibc and the standard library only.
        .target(name: "SystemSupport"),

        // Infrastructure: JSON values, their parser and serializer, and the Codable encoder and
        // decoder over them: the wire's one codec. No Foundation.
        .target(name: "WireJSON"),

        // Infrastructure: the Varlink protocol (framing, server, client). No full Foundation.
        .target(name: "Varlink", dependencies: ["SystemSupport", "WireJSON"]),

        // Daemon presentation + composition root, as a library so it can be tested.
        .target(
            name: "MoviesDaemon",
            dependencies: ["MoviesDomain", "MoviesWire", "MoviesData", "Networking", "SQLiteStore", "Varlink", "CommandLineSupport", "SystemSupport"],
            exclude: ["Interface/io.moviesd.Movies.varlink"]
        ),
        .executableTarget(name: "moviesd", dependencies: ["MoviesDaemon"]),

        // Client presentation: ViewModels and terminal views. Never SQLite, Networking or Foundation.
        .target(name: "MoviesCLI", dependencies: ["MoviesDomain", "MoviesWire", "Varlink", "CommandLineSupport", "SystemSupport"]),
        // The thin client is one static executable (the Swift runtime, FoundationEssentials and
        // glibc linked in): its start-up was mostly loading and binding shared libraries (measured
        // `movies --version`: 1.66 ms median with only the Swift runtime static, 0.61 ms fully
        // static; BENCHMARKS.md). Linking prints glibc's warnings about `mktemp` and `get*nam_r`
        // from FoundationEssentials' archive; `movies` calls no get*nam_r or getpw*_r itself (glibc
        // cannot load NSS modules into a static executable: user names go through getent(1),
        // `GetentPasswd`), and test-systemd runs the packaged binary on Debian 12 and 13.
        .executableTarget(
            name: "movies",
            dependencies: ["MoviesCLI"],
            linkerSettings: [.unsafeFlags(["-static-executable", "-l_FoundationCollections", "-l_FoundationCShims"])]
        ),

        // Test infrastructure: a TMDB-compatible HTTP server with fault injection.
        .target(name: "TMDBStub", dependencies: ["CommandLineSupport", "MoviesDomain", "SystemSupport", "Gzip"]),
        .executableTarget(name: "tmdb-stub", dependencies: ["TMDBStub"]),

        // Benchmark driver: Varlink load generator and timing (not a test; see BENCHMARKS.md).
        .executableTarget(name: "moviesd-bench", dependencies: ["Varlink", "SystemSupport", "CommandLineSupport", "MoviesDomain", "MoviesData", "MoviesWire", "SQLiteStore", "Networking"]),

        // Fakes shared by the test targets (in-memory storages, scripted remotes and transports).
        .target(name: "MoviesTestSupport", dependencies: ["MoviesDomain", "MoviesData", "Networking", "SystemSupport"], path: "Tests/MoviesTestSupport"),

        // A test-only SQLite VFS that simulates power cuts (C, over the system libsqlite3).
        .target(name: "PowerCutVFS", dependencies: ["CSQLite"], path: "Tests/PowerCutVFS"),

        .testTarget(name: "CommandLineSupportTests", dependencies: ["CommandLineSupport"]),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"]),
        .testTarget(name: "WireJSONTests", dependencies: ["WireJSON"]),
        .testTarget(name: "MoviesWireTests", dependencies: ["MoviesWire", "MoviesDomain", "WireJSON", "SystemSupport", "MoviesTestSupport"]),
        .testTarget(name: "MoviesDomainTests", dependencies: ["MoviesDomain", "SystemSupport", "MoviesTestSupport"]),
        .testTarget(name: "NetworkingTests", dependencies: ["Networking", "MoviesTestSupport"]),
        .testTarget(name: "MoviesDataTests", dependencies: ["MoviesData", "MoviesDomain", "MoviesWire", "Networking", "MoviesTestSupport", "SystemSupport", "Gzip"]),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["SQLiteStore", "Gzip", "MoviesData", "MoviesDomain", "MoviesWire", "MoviesTestSupport", "SystemSupport", "PowerCutVFS"]),
        .testTarget(name: "VarlinkTests", dependencies: ["Varlink", "MoviesTestSupport", "SystemSupport"]),
        .testTarget(name: "MoviesDaemonTests", dependencies: ["MoviesDaemon", "MoviesWire", "MoviesData", "MoviesDomain", "Networking", "SQLiteStore", "TMDBStub", "Varlink", "SystemSupport", "MoviesTestSupport"]),
        .testTarget(name: "MoviesCLITests", dependencies: ["MoviesCLI", "MoviesDomain", "MoviesWire", "Varlink", "MoviesTestSupport"]),
        .testTarget(name: "TMDBStubTests", dependencies: ["TMDBStub", "MoviesTestSupport", "Gzip"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Varlink", "MoviesTestSupport"], exclude: ["Scripts"]),
    ],
    swiftLanguageModes: [.v6]
)
