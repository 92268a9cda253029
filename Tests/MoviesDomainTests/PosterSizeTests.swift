import MoviesDomain
import Testing

@Suite struct PosterSizeTests {
    @Test(arguments: [
        (Optional<Int>.none, PosterSize.original), (1, .w92), (92, .w92), (120, .w92), (124, .w154),
        (170, .w185), (300, .w342), (421, .w500), (500, .w500), (700, .w780), (1170, .w780), (1171, .original),
    ])
    func nearestSize(width: Int?, expected: PosterSize) {
        #expect(PosterSize.nearest(toWidth: width) == expected)
    }
}
