/// TMDB's poster sizes (`w92` ... `w780`, `original`).
public enum PosterSize: String, Sendable, Hashable, Codable, CaseIterable {
    case w92, w154, w185, w342, w500, w780, original

    /// The pixel width, or `nil` for `original`.
    public var width: Int? {
        switch self {
        case .w92: 92
        case .w154: 154
        case .w185: 185
        case .w342: 342
        case .w500: 500
        case .w780: 780
        case .original: nil
        }
    }

    /// The size nearest to `width` (ties go to the larger size); `nil` or a width above 780
    /// by more than the gap to the next size asks for `original`.
    public static func nearest(toWidth width: Int?) -> PosterSize {
        guard let width else { return .original }
        let sized = allCases.compactMap { size in size.width.map { (size, $0) } }
        if let largest = sized.last, width > largest.1 + (largest.1 / 2) { return .original }
        var best = PosterSize.w92
        var bestDistance = Int.max
        for (size, w) in sized {
            let distance = abs(w - width)
            if distance <= bestDistance {
                best = size
                bestDistance = distance
            }
        }
        return best
    }
}
