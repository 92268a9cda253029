import Glibc
import Varlink

/// Entry point of `moviesd-bench`; see ``BenchCommand/usage``.
func runBench() async -> Int32 {
    let command: BenchCommand
    do {
        command = try BenchCommand.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
        print("moviesd-bench: \(error.description)")
        return 64
    }
    do {
        switch command {
        case .help:
            print(BenchCommand.usage)
        case .search(let options):
            try runSearch(options)
        case .prefetch(let options):
            try runPrefetch(options)
        case .index(let bench):
            do {
                for line in try await bench.run() {
                    print(line)
                    fflush(nil)
                }
            } catch {
                throw BenchError("index: \(error)")
            }
        case .evict(let bench):
            do {
                for line in try await bench.run() { print(line) }
            } catch {
                throw BenchError("evict: \(error)")
            }
        case .catalogue(let bench):
            do {
                for line in try await bench.run() {
                    print(line)
                    fflush(nil)
                }
            } catch {
                throw BenchError("catalogue: \(error)")
            }
        case .ceiling(let socketPath, let daemonSocket, let query, let requests, let policy, let threads):
            let reply = try CeilingServer.reply(from: daemonSocket, target: SearchTarget(query: query, page: 1))
            let replies = try CeilingServer.replies(from: daemonSocket, targets: requests, policy: policy)
            var server = CeilingServer(socketPath: socketPath, reply: reply, replies: replies)
            if let threads { server.threads = max(1, threads) }
            try server.run()
        case .pace(let options):
            let (sent, failures) = try PacedCalls(options: options).run()
            print("pace rate=\(format(options.rate, 1)) policy=\(options.policy) calls=\(sent) failures=\(failures.count)\(failures.first.map { " first_failure=\($0)" } ?? "")")
        case .calls(let options):
            let call = options.movie.map { BenchCall.movie($0, policy: options.policy) }
                ?? BenchCall.search(SearchTarget(query: options.query, page: 1), policy: options.policy)
            let run = CallLatencyRun(socketPath: options.socketPath, call: call, count: max(1, options.count), connections: options.connections)
            let (first, whole) = try run.run()
            print("calls\(options.movie.map { " movie=\($0)" } ?? "") policy=\(options.policy) connections=\(options.connections) count=\(first.count) first_p50_ms=\(format(first.p50, 3)) first_p99_ms=\(format(first.p99, 3)) whole_p50_ms=\(format(whole.p50, 3)) whole_p99_ms=\(format(whole.p99, 3))")
        }
        return 0
    } catch {
        print("moviesd-bench: \((error as? BenchError)?.description ?? "\(error)")")
        return 1
    }
}

/// One result line per connection count.
func runSearch(_ options: BenchCommand.SearchOptions) throws(BenchError) {
    let targets = options.queries.map { SearchTarget(query: $0, page: 1) } + options.requests
    let calls = targets.map { BenchCall.search($0, policy: options.policy) } + options.movieIDs.map { BenchCall.movie($0, policy: options.policy) }
    let messages = calls.map(\.message)
    let expected = options.expectedOrigin
    for connections in options.connections {
        let plan = LoadGenerator.Plan(
            socketPath: options.socketPath, messages: messages, connections: connections,
            threads: options.threads, durationSeconds: options.durationSeconds,
            check: { SearchReplyCheck.problem(in: $0, expectedOrigin: expected) })
        let memory = options.rssPID.map { ResidentMemory(pid: $0) }
        var extra: [(String, String)] = []
        if let pid = options.rssPID, let idle = ResidentMemory.current(pid: pid) { extra.append(("rss_before_kib", "\(idle)")) }
        memory?.start()
        let serverBefore = options.cpuPID.flatMap(ProcessCPU.seconds(pid:))
        let ownBefore = ProcessCPU.ownSeconds()
        let result = try LoadGenerator(plan: plan).run()
        let calls = Double(max(1, result.latency.count))
        // What a call cost the load generator and the server, in CPU microseconds: on a machine
        // whose cores both share, the server's throughput is what their sum allows.
        extra.append(("load_cpu_us_per_call", format((ProcessCPU.ownSeconds() - ownBefore) * 1_000_000 / calls, 2)))
        if let pid = options.cpuPID, let before = serverBefore, let after = ProcessCPU.seconds(pid: pid) {
            extra.append(("server_cpu_us_per_call", format((after - before) * 1_000_000 / calls, 2)))
        }
        if let peak = memory?.stop() { extra.append(("rss_peak_kib", "\(peak)")) }
        print(result.line(label: "search", extra: extra))
        fflush(nil)
    }
}

/// One result line for the prefetch run.
func runPrefetch(_ options: BenchCommand.PrefetchOptions) throws(BenchError) {
    let searches = options.requests.isEmpty && options.movieIDs.isEmpty
        ? (1...max(1, options.count)).map { SearchTarget(query: "\(options.prefix)-\($0)", page: 1) }
        : options.requests
    let targets = searches.map { BenchCall.search($0, policy: options.policy) } + options.movieIDs.map { BenchCall.movie($0, policy: options.policy) }
    let run = PrefetchRun(socketPath: options.socketPath, targets: targets, concurrency: options.concurrency)
    let outcome = try run.run()
    print("prefetch queries=\(targets.count) concurrency=\(options.concurrency) policy=\(options.policy) seconds=\(format(outcome.seconds, 3)) failures=\(outcome.failures.count)")
    for failure in outcome.failures.prefix(5) { print("  failure: \(failure)") }
}

exit(await runBench())
