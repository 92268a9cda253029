/// The `moviesd-bench` command line.
enum BenchCommand: Sendable {
    /// `search`: closed-loop load of cached `Search` calls at one or more connection counts.
    case search(SearchOptions)
    /// `prefetch`: distinct queries through the daemon (cold cache), wall time.
    case prefetch(PrefetchOptions)
    /// `--help`.
    case help

    /// Options of `search`.
    struct SearchOptions: Sendable {
        var socketPath = ""
        var queries: [String] = []
        var connections: [Int] = [1, 8, 32, 128]
        var threads = 2
        var durationSeconds = 10.0
        var policy = "cache_first"
        var expectedOrigin: String? = "cache"
        var rssPID: Int32?
    }

    /// Options of `prefetch`.
    struct PrefetchOptions: Sendable {
        var socketPath = ""
        var count = 200
        var prefix = "watch"
        var concurrency = 64
        var policy = "network_only"
    }

    /// The help text.
    static let usage = """
        USAGE:
          moviesd-bench search --socket PATH --query Q [--query Q ...] [--connections 1,8,32,128]
                               [--threads 2] [--duration 10] [--policy cache_first]
                               [--expect-origin cache|network|any] [--rss-pid PID]
          moviesd-bench prefetch --socket PATH [--count 200] [--prefix watch] [--concurrency 64]
                               [--policy network_only]

        search: for each connection count, opens that many Unix-socket connections spread over
        --threads threads, keeps exactly one io.moviesd.Movies.Search call in flight on each (like
        wrk), for --duration seconds, and prints one line: requests/s and p50/p99/p999 latency.
        Each connection's first reply is parsed and checked (no error; freshness.origin as
        expected); the rest are only framed. --rss-pid samples that process's peak VmRSS.

        prefetch: sends --count distinct queries ("PREFIX-1" ...) with --policy through
        --concurrency connections and prints the wall time until the last answer.

        Not a test: it asserts nothing about timing. See scripts/bench and BENCHMARKS.md.
        """

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(BenchError) -> BenchCommand {
        guard let verb = arguments.first else { return .help }
        var options = OptionReader(Array(arguments.dropFirst()))
        switch verb {
        case "-h", "--help", "help":
            return .help
        case "search":
            var search = SearchOptions()
            while let name = options.nextName() {
                switch name {
                case "--socket": search.socketPath = try options.value(name)
                case "--query": search.queries.append(try options.value(name))
                case "--connections": search.connections = try options.integers(name)
                case "--threads": search.threads = try options.integer(name)
                case "--duration": search.durationSeconds = try options.number(name)
                case "--policy": search.policy = try options.value(name)
                case "--expect-origin":
                    let origin = try options.value(name)
                    search.expectedOrigin = origin == "any" ? nil : origin
                case "--rss-pid": search.rssPID = Int32(try options.integer(name))
                default: throw BenchError("unknown option \(name); see --help")
                }
            }
            guard !search.socketPath.isEmpty, !search.queries.isEmpty else {
                throw BenchError("search needs --socket and at least one --query")
            }
            return .search(search)
        case "prefetch":
            var prefetch = PrefetchOptions()
            while let name = options.nextName() {
                switch name {
                case "--socket": prefetch.socketPath = try options.value(name)
                case "--count": prefetch.count = try options.integer(name)
                case "--prefix": prefetch.prefix = try options.value(name)
                case "--concurrency": prefetch.concurrency = try options.integer(name)
                case "--policy": prefetch.policy = try options.value(name)
                default: throw BenchError("unknown option \(name); see --help")
                }
            }
            guard !prefetch.socketPath.isEmpty else { throw BenchError("prefetch needs --socket") }
            return .prefetch(prefetch)
        default:
            throw BenchError("unknown command \(verb); see --help")
        }
    }
}
