extension TMDBRouter {
    /// Image sizes the stub serves, with the pixel width of each (`original` is 1000 wide).
    static let imageWidths: [String: Int] = [
        "w45": 45, "w92": 92, "w154": 154, "w185": 185, "w300": 300, "w342": 342, "w500": 500,
        "w780": 780, "w1280": 1280, "original": 1000,
    ]

    /// The height of every generated image (kept small; width is what clients choose by).
    static let imageHeight = 6

    /// `/3/configuration`, with the image base URLs pointing at this stub.
    func configurationResponse(port: Int) -> HTTPResponse {
        let host = configuration.host == "0.0.0.0" ? "127.0.0.1" : configuration.host
        let base = "http://\(host):\(port)/t/p/"
        func sizes(_ names: [String]) -> JSONValue { .array(names.map(JSONValue.string)) }
        return .json(.object([
            ("change_keys", sizes(["adult", "images", "overview", "poster_path", "release_date", "title"])),
            ("images", .object([
                ("base_url", .string(base)),
                ("secure_base_url", .string(base)),
                ("backdrop_sizes", sizes(["w300", "w780", "w1280", "original"])),
                ("logo_sizes", sizes(["w45", "w92", "w154", "w185", "w300", "w500", "original"])),
                ("poster_sizes", sizes(["w92", "w154", "w185", "w342", "w500", "w780", "original"])),
                ("profile_sizes", sizes(["w45", "w185", "original"])),
                ("still_sizes", sizes(["w92", "w185", "w300", "original"])),
            ])),
        ]))
    }

    /// `/t/p/{size}/{file}`: a deterministic PNG for a known size and a file some movie uses, else 404.
    func image(path: String) -> HTTPResponse {
        let parts = path.dropFirst("/t/p/".count).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Self.imageWidths[String(parts[0])],
              catalogue.containsImage(path: "/" + parts[1]) else {
            return HTTPResponse(status: 404, headers: [("Content-Type", "text/plain")], body: Array("Not Found".utf8))
        }
        let seed = Checksums.fnv1a(Array(path.utf8))
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "image/png")],
            body: PNGEncoder.placeholder(width: width, height: Self.imageHeight, seed: seed)
        )
    }
}
