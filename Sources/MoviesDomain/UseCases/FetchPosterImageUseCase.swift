/// Fetches a poster image at the TMDB size nearest to a requested width.
public struct FetchPosterImageUseCase: Sendable {
    private let posterImagesRepository: any PosterImagesRepository

    /// Creates the use case.
    public init(posterImagesRepository: any PosterImagesRepository) {
        self.posterImagesRepository = posterImagesRepository
    }

    /// Runs the fetch. `path` is a TMDB image path such as `/abc.jpg`; `width` picks the nearest size.
    public func execute(path: String, width: Int?, policy: FetchPolicy = .cacheFirst, emit: EmitFetched<PosterImage>) async throws {
        guard FetchPosterImageUseCase.isValidPath(path) else {
            throw MoviesError.invalidArgument("poster path must look like '/abc123.jpg', got '\(path)'")
        }
        if let width, width <= 0 { throw MoviesError.invalidArgument("width must be positive, got \(width)") }
        try await posterImagesRepository.posterImage(path: path, size: .nearest(toWidth: width), policy: policy, emit: emit)
    }

    /// A TMDB image path: one leading slash, then letters, digits, `_`, `-` and dots; the name
    /// neither starts nor ends with a dot (no `/.`, `/..` or hidden `/.x`: `/.` was requested as
    /// the size directory itself) and has no `..`.
    static func isValidPath(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path.count > 1, path.count <= 128 else { return false }
        let name = path.dropFirst()
        guard !name.hasPrefix("."), !name.hasSuffix(".") else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-" || scalar == ".")
        } && !path.contains("..")
    }
}
