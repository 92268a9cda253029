/// The `moviesd-bench` command line.
enum BenchCommand: Sendable {
    /// `search`: closed-loop load of cached `Search` calls at one or more connection counts.
    case search(SearchOptions)
    /// `prefetch`: distinct queries through the daemon (cold cache), wall time.
    case prefetch(PrefetchOptions)
    /// `calls`: sequential calls with `more`, first-reply and whole-call latency.
    case calls(CallsOptions)
    /// `pace`: calls at a steady rate beside a measurement (new pages stored, or a control).
    case pace(PaceOptions)
    /// `ceiling`: a minimal epoll server answering every call with the same reply bytes.
    case ceiling(socketPath: String, daemonSocket: String, query: String, requests: [SearchTarget], policy: String, threads: Int?)
    /// `index`: the local search index's write cost and query latency at scale.
    case index(IndexBench)
    /// `catalogue`: the catalogue's import, difference and search at scale.
    case catalogue(CatalogueBench)
    /// `evict`: eviction at the byte budget over an existing cache.
    case evict(EvictionBench)
    /// `--help`.
    case help

    /// Options of `calls`.
    struct CallsOptions: Sendable {
        var socketPath = ""
        var query = ""
        var policy = "cache_then_network"
        var count = 300
        /// A `Movie` call for this id instead of the `Search`.
        var movie: Int?
        /// Connections calling at the same time (one thread each), each `count` calls.
        var connections = 1
    }

    /// Options of `pace`.
    struct PaceOptions: Sendable {
        var socketPath = ""
        var rate = 35.0
        var durationSeconds = 10.0
        var policy = "network_only"
        /// Distinct queries `PREFIX-1`, `PREFIX-2`, … (a new page each), unless `query` is set.
        var prefix = "paced"
        /// The one query asked every time (a control: the same calls, nothing new stored).
        var query: String?
    }

    /// Options of `search`.
    struct SearchOptions: Sendable {
        var socketPath = ""
        var queries: [String] = []
        /// `(query, page)` pairs read from `--requests-file`, asked after `queries` (page 1).
        var requests: [SearchTarget] = []
        /// Movie ids read from `--movies-file`: `Movie` calls, asked after the searches.
        var movieIDs: [Int] = []
        var connections: [Int] = [1, 8, 32, 128]
        var threads = 2
        var durationSeconds = 10.0
        var policy = "cache_first"
        var expectedOrigin: String? = "cache"
        var rssPID: Int32?
        /// `--cpu-pid`: the server whose CPU time per call is reported (`server_cpu_us_per_call`).
        var cpuPID: Int32?
    }

    /// Options of `prefetch`.
    struct PrefetchOptions: Sendable {
        var socketPath = ""
        var count = 200
        var prefix = "watch"
        var concurrency = 64
        var policy = "network_only"
        /// `(query, page)` pairs from `--requests-file`, sent instead of the numbered queries.
        var requests: [SearchTarget] = []
        /// Movie ids from `--movies-file`: `Movie` calls, sent instead of the numbered queries.
        var movieIDs: [Int] = []
    }

    /// The help text.
    static let usage = """
        USAGE:
          moviesd-bench search --socket PATH (--query Q ... | --requests-file F | --movies-file F)
                               [--connections 1,8,32,128]
                               [--threads 2] [--duration 10] [--policy cache_first]
                               [--expect-origin cache|network|any] [--rss-pid PID] [--cpu-pid PID]
          moviesd-bench prefetch --socket PATH [--count 200] [--prefix watch] [--concurrency 64]
                               [--policy network_only] [--requests-file F | --movies-file F]
          moviesd-bench calls --socket PATH (--query Q | --movie ID) [--policy cache_then_network] [--count 300]
                               [--connections 1]
          moviesd-bench pace --socket PATH [--rate 35] [--duration 10] [--policy network_only]
                               [--prefix paced | --query Q]
          moviesd-bench ceiling --socket PATH --daemon-socket PATH --query Q [--requests-file F [--policy cache_first]] [--threads N]
          moviesd-bench index [--movies 100000] [--queries 2000] [--directory /tmp] [--seed 1] [--keep | --indexed-only]
          moviesd-bench evict --database PATH [--runs 200]
          moviesd-bench catalogue --export FILE.json.gz --database PATH [--later FILE.json.gz] [--queries 2000] [--cache PATH]

        search: for each connection count, opens that many Unix-socket connections spread over
        --threads threads, keeps exactly one io.moviesd.Movies.Search call in flight on each (like
        wrk), for --duration seconds, and prints one line: requests/s and p50/p99/p999 latency.
        Each connection's first reply is parsed and checked (no error; freshness.origin as
        expected); the rest are only framed. --rss-pid samples that process's peak VmRSS. The line
        also says the load generator's own CPU time per call (load_cpu_us_per_call) and, with
        --cpu-pid, the server's (server_cpu_us_per_call, from /proc/PID/stat): CPU time over the
        whole run (connecting, and --rss-pid's sampler, included) divided by the calls counted.

        prefetch: sends --count distinct queries ("PREFIX-1" ...), or each line of --requests-file,
        with --policy through --concurrency connections and prints the wall time until the last
        answer.

        calls: sends --count Search calls for --query (Movie calls for --movie) with --policy and `more`, one after the
        other on one connection (after 10 unmeasured ones), and prints the latency of the first
        reply and of the whole call. With --connections N, N connections do so at the same time
        (one thread each, --count calls each) and the latencies of all of them are summarised.

        pace: sends Search calls on one connection at --rate a second for --duration seconds:
        distinct queries ("PREFIX-1" ...), each a page the daemon fetches and stores (with
        network_only), or always --query (a control: the same calls, nothing new stored). Run
        beside `search` to measure cached answers while the cache is written.

        catalogue: imports the export FILE (TMDB's daily ID export, gzip) into a new catalogue at
        PATH as the daemon does, and prints the time, this process's memory growth and the size on
        disk; then --later's file as a difference; then the latency of --queries searches of each
        kind (one, two and three words, 2-character prefixes) drawn from the catalogue's titles;
        with --cache (a cache database with the local index, from `index --indexed-only`), each also
        as the daemon's local search runs it: the cached movies' index, then the catalogue.

        evict: over the cache database PATH (changed: give it a copy), stores a 5 KB page over the
        budget (the cache's size at the start) and times the eviction that makes room, --runs times,
        then one eviction of a tenth of the cache.

        ceiling: takes the daemon's reply to a cache_first Search for --query, then serves it
        to every call on --socket from --threads epoll loops (default: one per CPU it may use) until
        killed: the least a Varlink server can do under the same load (`search` against it gives the ceiling). With --requests-file, each
        call of that file (as `search --requests-file F --policy P` sends it) gets its own reply,
        taken from the daemon first and found by the call's bytes; other calls get --query's.

        index: fills two cache databases (in a new directory under --directory, removed after)
        with --movies synthetic movies as search pages of 20, one with the local search index
        and one without, and prints the cost of a page write with and without it (new pages,
        then 1,000 pages again unchanged), then the latency of --queries index queries by kind.
        --indexed-only fills and keeps only the indexed one (for scripts/bench-browse).

        A requests file has one search per line: the query, a tab, the page number. A movies
        file has one movie id per line: io.moviesd.Movies.Movie calls (details) instead.

        Not a test: it asserts nothing about timing. See scripts/bench and BENCHMARKS.md.
        """

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(BenchError) -> BenchCommand {
        guard let verb = arguments.first else { return .help }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "-h", "--help", "help":
            return .help
        case "search":
            let options = try OptionReader(rest, names: [
                "--socket", "--query", "--requests-file", "--connections", "--threads", "--duration", "--policy",
                "--expect-origin", "--rss-pid", "--cpu-pid", "--movies-file",
            ])
            var search = SearchOptions()
            search.socketPath = options.value("--socket") ?? ""
            search.queries = options.values("--query")
            for file in options.values("--requests-file") { search.requests += try SearchTarget.read(file: file) }
            for file in options.values("--movies-file") { search.movieIDs += try SearchTarget.readMovieIDs(file: file) }
            search.connections = try options.integers("--connections") ?? search.connections
            search.threads = try options.integer("--threads") ?? search.threads
            search.durationSeconds = try options.number("--duration") ?? search.durationSeconds
            search.policy = options.value("--policy") ?? search.policy
            if let origin = options.value("--expect-origin") { search.expectedOrigin = origin == "any" ? nil : origin }
            if let pid = try options.integer("--rss-pid") { search.rssPID = Int32(clamping: pid) }
            if let pid = try options.integer("--cpu-pid") { search.cpuPID = Int32(clamping: pid) }
            guard !search.socketPath.isEmpty, !search.queries.isEmpty || !search.requests.isEmpty || !search.movieIDs.isEmpty else {
                throw BenchError("search needs --socket and at least one --query, a --requests-file or a --movies-file")
            }
            return .search(search)
        case "prefetch":
            let options = try OptionReader(rest, names: ["--socket", "--count", "--prefix", "--concurrency", "--policy", "--requests-file", "--movies-file"])
            var prefetch = PrefetchOptions()
            prefetch.socketPath = options.value("--socket") ?? ""
            prefetch.count = try options.integer("--count") ?? prefetch.count
            prefetch.prefix = options.value("--prefix") ?? prefetch.prefix
            prefetch.concurrency = try options.integer("--concurrency") ?? prefetch.concurrency
            prefetch.policy = options.value("--policy") ?? prefetch.policy
            if let file = options.value("--requests-file") { prefetch.requests = try SearchTarget.read(file: file) }
            if let file = options.value("--movies-file") { prefetch.movieIDs = try SearchTarget.readMovieIDs(file: file) }
            guard !prefetch.socketPath.isEmpty else { throw BenchError("prefetch needs --socket") }
            return .prefetch(prefetch)
        case "calls":
            let options = try OptionReader(rest, names: ["--socket", "--query", "--policy", "--count", "--movie", "--connections"])
            var calls = CallsOptions()
            calls.socketPath = options.value("--socket") ?? ""
            calls.query = options.value("--query") ?? calls.query
            calls.policy = options.value("--policy") ?? calls.policy
            calls.count = try options.integer("--count") ?? calls.count
            calls.movie = try options.integer("--movie")
            calls.connections = try options.integer("--connections") ?? calls.connections
            guard calls.connections >= 1 else { throw BenchError("calls: --connections takes a whole number of at least 1") }
            guard !calls.socketPath.isEmpty, !calls.query.isEmpty || calls.movie != nil else { throw BenchError("calls needs --socket and --query or --movie") }
            return .calls(calls)
        case "pace":
            let options = try OptionReader(rest, names: ["--socket", "--rate", "--duration", "--policy", "--prefix", "--query"])
            var pace = PaceOptions()
            pace.socketPath = options.value("--socket") ?? ""
            pace.rate = try options.number("--rate") ?? pace.rate
            pace.durationSeconds = try options.number("--duration") ?? pace.durationSeconds
            pace.policy = options.value("--policy") ?? pace.policy
            pace.prefix = options.value("--prefix") ?? pace.prefix
            pace.query = options.value("--query")
            guard !pace.socketPath.isEmpty, pace.rate > 0 else { throw BenchError("pace needs --socket and a --rate above 0") }
            return .pace(pace)
        case "ceiling":
            let options = try OptionReader(rest, names: ["--socket", "--daemon-socket", "--query", "--requests-file", "--policy", "--threads"])
            guard let socket = options.value("--socket"), let daemon = options.value("--daemon-socket"), let query = options.value("--query") else {
                throw BenchError("ceiling needs --socket, --daemon-socket and --query")
            }
            let requests = try options.value("--requests-file").map { file throws(BenchError) in try SearchTarget.read(file: file) } ?? []
            return .ceiling(
                socketPath: socket, daemonSocket: daemon, query: query, requests: requests, policy: options.value("--policy") ?? SearchOptions().policy,
                threads: try options.integer("--threads"))
        case "index":
            let options = try OptionReader(rest, names: ["--movies", "--queries", "--directory", "--seed"], flags: ["--keep", "--indexed-only"])
            var bench = IndexBench()
            bench.indexedOnly = options.has("--indexed-only")
            bench.movies = try options.integer("--movies") ?? bench.movies
            bench.queries = try options.integer("--queries") ?? bench.queries
            bench.directory = options.value("--directory") ?? bench.directory
            bench.seed = UInt64(clamping: try options.integer("--seed") ?? 1)
            bench.keep = options.has("--keep")
            guard bench.movies > 0, bench.queries > 0 else { throw BenchError("index needs --movies and --queries above 0") }
            return .index(bench)
        case "evict":
            let options = try OptionReader(rest, names: ["--database", "--runs"])
            guard let database = options.value("--database") else { throw BenchError("evict needs --database PATH (a copy: it is changed)") }
            var bench = EvictionBench()
            bench.database = database
            bench.runs = try options.integer("--runs") ?? bench.runs
            return .evict(bench)
        case "catalogue":
            let options = try OptionReader(rest, names: ["--export", "--later", "--database", "--queries", "--cache"])
            guard let export = options.value("--export"), let database = options.value("--database") else {
                throw BenchError("catalogue needs --export FILE.json.gz and --database PATH")
            }
            var bench = CatalogueBench()
            bench.export = export
            bench.later = options.value("--later")
            bench.database = database
            bench.queries = try options.integer("--queries") ?? bench.queries
            bench.cache = options.value("--cache")
            return .catalogue(bench)
        default:
            throw BenchError("unknown command \(verb); see --help")
        }
    }
}
