import CommandLineSupport
import MoviesDomain
import Varlink

/// `movies poster ID|PATH [--width W] -o FILE`: saves a poster image; `-o -` writes it to standard
/// output unless that is a terminal.
struct PosterCommand: MoviesCommand {
    static let spec = CommandSpec(
        name: "poster",
        abstract: "Save a movie's poster image.",
        usage: "poster ID|PATH [--width W] -o FILE",
        arguments: [ArgumentSpec(name: "ID|PATH", help: "A TMDB movie id, or a poster path such as /f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg.")],
        options: [
            .option("--width", "-w", value: "W", help: "The width in pixels; the nearest TMDB size is served (default: original)."),
            .option("--output", "-o", value: "FILE", help: "Where to write the image; '-' writes to standard output. Required."),
        ]
    )

    /// The id completes with the movies of the newest search and of the watchlists.
    static func completion(after positionals: [String]) -> CompletionSource {
        positionals.isEmpty ? .movieIDs : .nothing
    }

    /// What to fetch the poster of.
    enum Target: Hashable {
        /// The poster of this movie.
        case movie(id: Int)
        /// The poster at this path.
        case path(String)
    }

    /// A poster path, for help and errors.
    static let examplePath = "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg"

    let target: Target
    let width: Int?
    let outputPath: String

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1, let text = arguments.positionals.first else {
            throw UsageError("give exactly one movie ID or poster PATH, e.g. 'movies poster 603 -o matrix.jpg'", command: "poster")
        }
        if let id = Int(text), id > 0 {
            target = .movie(id: id)
        } else if text.hasPrefix("/") {
            // It says it is a path: say what is wrong with it, not that it lacks the '/' it has.
            let name = text.dropFirst()
            guard !name.isEmpty, !name.contains("/"), !name.contains("..") else {
                throw UsageError("'\(text)' is not a poster path: that is '/' followed by a file name with no '/' or '..' in it, such as \(Self.examplePath)", command: "poster")
            }
            target = .path(text)
        } else {
            throw UsageError("'\(text)' is neither a movie ID nor a poster path ('/' followed by a file name, such as \(Self.examplePath))", command: "poster")
        }
        width = try arguments.integer("--width", in: 1...10_000, command: "poster")
        guard let output = arguments.value("--output"), !output.isEmpty else {
            throw UsageError("missing -o FILE: say where to write the image ('-' for standard output)", command: "poster")
        }
        if output == "-", arguments.has("--json") || arguments.has("--stream") {
            throw UsageError("-o - writes the image to standard output, where --json prints its answer: use -o FILE with --json", command: "poster")
        }
        outputPath = output
    }

    func run(_ context: CommandContext) -> ExitCode {
        // As curl does: image bytes would garble a terminal (and may drive it with escape sequences).
        if outputPath == "-", context.standardOutputIsTerminal {
            let error = UsageError("binary output can mess up your terminal; use -o FILE, or pipe it (movies poster ID -o - | display)", command: "poster")
            context.errors.write(error.text)
            return .usage
        }
        do {
            let path = try posterPath(context)
            let reply = try context.client.poster(path: path, width: width)
            guard let bytes = Base64Decoder.decode(reply.value.base64) else {
                return context.fail(.other("moviesd sent a poster that is not valid base64; try again, or purge the cache"))
            }
            if let failure = context.writeFile(bytes, outputPath) {
                return context.fail(.other(failure))
            }
            if context.json {
                context.answer(Self.savedAnswer(reply.parameters, path: outputPath, bytes: bytes.count))
            } else if outputPath != "-" {
                let size = Self.sizeNote(served: reply.value.width, asked: width)
                context.print([
                    "Saved \(path) (\(reply.value.mimeType), \(size), \(ByteCount.describe(Int64(bytes.count)))) to \(outputPath)"
                        + " — " + FreshnessLine.describe(reply.value.freshness),
                ])
            }
            return .success
        } catch {
            return context.fail(error)
        }
    }

    /// The size saved ("342 px", "original size"), and the size asked when that is another one:
    /// offline, a stored size of the poster stands in for one never fetched.
    static func sizeNote(served: Int, asked: Int?) -> String {
        func describe(_ width: Int?) -> String { width.map { "\($0) px" } ?? "original size" }
        let servedWidth = served > 0 ? served : nil
        let askedWidth = PosterSize.nearest(toWidth: asked).width
        guard servedWidth != askedWidth else { return describe(servedWidth) }
        return "\(describe(servedWidth)), the size stored here, not the \(describe(askedWidth)) asked"
    }

    /// The poster reply's parameters with the image replaced by where it was saved: `file` (the
    /// path as given) and `bytes` (its size) instead of `base64`.
    static func savedAnswer(_ reply: JSONValue, path: String, bytes: Int) -> JSONValue {
        guard case .object(var members) = reply else { return reply }
        members["base64"] = nil
        members["file"] = .string(path)
        members["bytes"] = .int(Int64(bytes))
        return .object(members)
    }

    private func posterPath(_ context: CommandContext) throws(ClientError) -> String {
        switch target {
        case .path(let path):
            return path
        case .movie(let id):
            var posterPath: String?
            try context.client.movie(id: id, language: nil, policy: .cacheFirst) { reply in
                posterPath = reply.value.movie.posterPath
            }
            guard let posterPath else { throw ClientError.other("movie \(id) has no poster on TMDB") }
            return posterPath
        }
    }
}
