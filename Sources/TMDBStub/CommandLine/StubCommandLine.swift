import CommandLineSupport

/// The `tmdb-stub` command line: parses arguments into a configuration, in the spirit of
/// swift-argument-parser (every option documented in ``usage``; errors say what to do).
public struct StubCommandLine: Sendable {
    /// A command line that cannot be run.
    public struct InvalidArguments: Error, CustomStringConvertible {
        /// What is wrong and how to fix it.
        public var description: String
    }

    /// The server configuration.
    public var configuration = TMDBStubConfiguration()
    /// Where to write the main port, if anywhere.
    public var portFile: String?
    /// True when `--help` was given.
    public var wantsHelp = false

    /// The help text.
    public static let usage = """
        USAGE: tmdb-stub [options]

        A TMDB v3-compatible HTTP/1.1 fixture server with fault injection.
        Serves GET /3/search/movie, /3/movie/{id}, /3/movie/changes, /3/movie/{id}/changes,
        /3/configuration (auth: "Authorization: Bearer TOKEN" or ?api_key=KEY) and GET /t/p/{size}/{file}
        (PNG, no auth) from a deterministic catalogue.
        Prints "tmdb-stub listening on http://HOST:PORT" then "tmdb-stub control on http://HOST:PORT".

        ACCOUNT (one user, id 22011 "stub-user"; app auth as above, session as ?session_id=S):
          GET /3/authentication/token/new         a request token, valid 60 minutes
          POST /3/authentication/session/new      {"request_token":T} -> session (401 code 17 until the
                                                  token is approved, 33 when unknown, used or expired)
          DELETE /3/authentication/session        {"session_id":S}
          GET /3/account                          the account's details
          GET /3/account/22011/{watchlist,favorite,rated}/movies   ?page, ?sort_by=created_at.asc|desc
          POST /3/account/22011/{watchlist,favorite}   {"media_type":"movie","media_id":603,"watchlist":true}
          POST|DELETE /3/movie/{id}/rating        {"value":8.5} (0.5...10, steps of 0.5; removes the
                                                  movie from the watchlist)
          GET /3/movie/{id}/account_states        favorite, rated, watchlist
          No or an unknown session: 401 code 3.

        OPTIONS:
          --host ADDR              IPv4 address to listen on (default 127.0.0.1)
          --port N                 main port, 0 = kernel-assigned (default 0)
          --control-port N         control port, 0 = kernel-assigned (default 0)
          --port-file PATH         also write the main port (decimal, newline) to PATH
          --token TOKEN            accepted bearer token (default stub-token)
          --api-key KEY            accepted api_key query value (default stub-api-key)
          --seed N                 catalogue seed (default 20260101)
          --movies N               generated movies on top of the well-known ones (default 2000)
          --export-size N          titles in the daily ID export, GET /p/exports/movie_ids_MM_DD_YYYY.json.gz
                                   (no key; default 1100000); export faults via POST /faults:
                                   {"export":"truncated"|"corrupt", "exportMissing":["YYYY-MM-DD"|"*"],
                                    "exportBytesPerSecond":N}
          --max-age N              Cache-Control max-age in seconds (default 3600)
          --max-connections N      concurrent connections served (default 256)
          --recording ROUTE=FILE   answer ROUTE (a path, optionally with query parameters that must
                                   match, e.g. /3/search/movie?query=007&page=2) with FILE's bytes as
                                   JSON, status 200 (ROUTE=STATUS:FILE for another); repeatable; checked
                                   after authorization, before the catalogue
          --auto-approve           approve every request token as it is issued
        FAULTS (also settable at run time on the control port; a share given without a value means 1):
          --latency-ms N           delay every answer by N ms
          --error-rate X           share 0...1 of requests answered 500
          --rate-limit-share X     share 0...1 of requests answered 429 (TMDB code 25)
          --retry-after N          Retry-After seconds sent with 429 (default 1)
          --malformed-json X       share of 200 JSON bodies sent broken
          --truncate-body X        share of answers cut short of their Content-Length, then closed
          --reset X                share of requests answered with a TCP RST
          --hang X                 share of requests never answered
          --down                   start with the main port closed (connections refused)
          --session-expired        answer every request with a session 401 code 3
          --drop-after-apply X     share of account writes applied, then answered with a TCP RST
          --unreadable-writes X    share of account writes answered 200 with an unreadable (HTML) body,
                                   without applying them
          --writes-only            error-rate, rate-limit-share, hang and reset hit only account writes
                                   (watchlist, favorite, rating); a write they hit is not applied
          --lists-only             error-rate, rate-limit-share, hang and reset hit only the account's
                                   list reads (GET /3/account/ID/LIST/movies); writes keep working
          --help                   show this help

        CONTROL PORT:
          GET /faults              current faults as JSON
          POST /faults             JSON with any of latencyMs, errorRate, rateLimit {"share","retryAfter"},
                                   malformedJSON, truncateBody, reset, hang, down (true closes the main
                                   port, false re-opens it on the same port), sessionExpired,
                                   dropAfterApply, unreadableWrites, writesOnly, listsOnly
          POST /reset              clear faults and counters (keeps the change log and the account)
          GET /stats               {"requests":{"/3/search/movie":N,...},"total":N}
          GET /movies              {"ids":[...]}: every movie id of the catalogue
          POST /changes            record a change for the change feed: {"ids":[603],"date":"2026-11-25",
                                   "time":"10:13:00","keys":["title"]} (today, 23:59:59, title by default; a title
                                   change adds " (revision N)" to the movie's title); GET lists them,
                                   DELETE forgets them (POST /reset keeps them)
          GET /account             {"account_id","watchlist","favorite","rated","writes","write_log","sessions"}
          POST /account            replace the lists given, as edits on the website would:
                                   {"watchlist":[603],"favorite":[],"rated":{"550":7}}
          DELETE /account          empty the lists, ratings and write log (sessions stay)
          POST /account/approve    {"request_token":T} approves T; {} or {"all":true} every pending token
          POST /account/expire-sessions   invalidate every session
        SIGNALS: SIGUSR1 = down, SIGUSR2 = up, SIGTERM/SIGINT = exit 0.
        """

    /// The options, for the shared parser; fault shares given without a value mean 1 (always).
    private static let options: [OptionSpec] = [
        "--host", "--port", "--control-port", "--port-file", "--token", "--api-key", "--seed", "--movies", "--export-size",
        "--max-age", "--max-connections", "--recording", "--latency-ms", "--retry-after",
    ].map { OptionSpec.option($0, value: "VALUE", help: "") }
        + ["--error-rate", "--rate-limit-share", "--malformed-json", "--truncate-body", "--reset", "--hang", "--drop-after-apply", "--unreadable-writes"]
        .map { OptionSpec.option($0, value: "SHARE", implicit: "1", help: "") }
        + ["--down", "--auto-approve", "--session-expired", "--writes-only", "--lists-only"].map { OptionSpec.flag($0, help: "") }
        + [.flag("--help", "-h", help: "")]

    /// Parses `arguments` (without the program name).
    public init(arguments: [String]) throws(InvalidArguments) {
        let parsed: ParsedArguments
        do throws(OptionParseError) {
            parsed = try OptionParser.parse(arguments, options: Self.options)
        } catch {
            switch error {
            case .unknown(let name, _): throw InvalidArguments(description: "Unknown option \(name); see --help.")
            case .missingValue(let name, _): throw InvalidArguments(description: "\(name) needs a value; see --help.")
            case .unexpectedValue(let name): throw InvalidArguments(description: "\(name) takes no value; see --help.")
            }
        }
        if let argument = parsed.positionals.first {
            throw InvalidArguments(description: "Unknown option \(argument); see --help.")
        }
        wantsHelp = parsed.has("--help")
        if parsed.has("--down") { configuration.faults.down = true }
        if parsed.has("--auto-approve") { configuration.autoApprove = true }
        if parsed.has("--session-expired") { configuration.faults.sessionExpired = true }
        if parsed.has("--writes-only") { configuration.faults.writesOnly = true }
        if parsed.has("--lists-only") { configuration.faults.listsOnly = true }
        for (option, values) in parsed.values.sorted(by: { $0.key < $1.key }) {
            for value in values { try apply(option, value) }
        }
    }

    private mutating func apply(_ option: String, _ value: String) throws(InvalidArguments) {
        switch option {
        case "--host": configuration.host = value
        case "--port": configuration.port = try Self.integer(option, value, in: 0...65_535)
        case "--control-port": configuration.controlPort = try Self.integer(option, value, in: 0...65_535)
        case "--port-file": portFile = value
        case "--token": configuration.token = value
        case "--api-key": configuration.apiKey = value
        case "--seed":
            guard let seed = UInt64(value) else { throw InvalidArguments(description: "--seed needs an unsigned integer.") }
            configuration.seed = seed
        case "--export-size": configuration.exportSize = try Self.integer(option, value, in: 1...20_000_000)
        case "--movies": configuration.movieCount = try Self.integer(option, value, in: 0...1_000_000)
        case "--max-age": configuration.maxAgeSeconds = try Self.integer(option, value, in: 0...31_536_000)
        case "--max-connections": configuration.maxConnections = try Self.integer(option, value, in: 1...4_096)
        case "--recording": configuration.recordings.append(try StubRecording.parse(value))
        case "--latency-ms": configuration.faults.latencyMs = try Self.integer(option, value, in: 0...600_000)
        case "--error-rate": configuration.faults.errorRate = try Self.share(option, value)
        case "--rate-limit-share": configuration.faults.rateLimit.share = try Self.share(option, value)
        case "--retry-after": configuration.faults.rateLimit.retryAfter = try Self.integer(option, value, in: 0...86_400)
        case "--malformed-json": configuration.faults.malformedJSON = try Self.share(option, value)
        case "--truncate-body": configuration.faults.truncateBody = try Self.share(option, value)
        case "--reset": configuration.faults.reset = try Self.share(option, value)
        case "--hang": configuration.faults.hang = try Self.share(option, value)
        case "--drop-after-apply": configuration.faults.dropAfterApply = try Self.share(option, value)
        case "--unreadable-writes": configuration.faults.unreadableWrites = try Self.share(option, value)
        default: throw InvalidArguments(description: "Unknown option \(option); see --help.")
        }
    }

    private static func integer(_ option: String, _ value: String, in range: ClosedRange<Int>) throws(InvalidArguments) -> Int {
        guard let number = Int(value), range.contains(number) else {
            throw InvalidArguments(description: "\(option) needs an integer in \(range.lowerBound)...\(range.upperBound), got \"\(value)\".")
        }
        return number
    }

    private static func share(_ option: String, _ value: String) throws(InvalidArguments) -> Double {
        guard let number = Double(value), (0...1).contains(number) else {
            throw InvalidArguments(description: "\(option) needs a share between 0 and 1, got \"\(value)\".")
        }
        return number
    }
}
