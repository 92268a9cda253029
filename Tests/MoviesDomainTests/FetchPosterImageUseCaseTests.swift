import FoundationEssentials
import MoviesDomain
import Testing

@Suite struct FetchPosterImageUseCaseTests {
    /// Records the size asked for and answers with one cached image.
    actor RecordingPosterRepository: PosterImagesRepository {
        private(set) var sizes: [PosterSize] = []
        nonisolated func posterImage(path: String, size: PosterSize, policy: FetchPolicy, emit: EmitFetched<PosterImage>) async throws {
            await record(size)
            await emit(Fetched(value: PosterImage(bytes: Data([1]), mimeType: "image/jpeg", size: size),
                               freshness: Freshness(origin: .cache, fetchedAt: Date(timeIntervalSince1970: 0), ageSeconds: 0, stale: false)))
        }
        private func record(_ size: PosterSize) { sizes.append(size) }
    }

    private func firstError(_ useCase: FetchPosterImageUseCase, path: String, width: Int?) async -> MoviesError? {
        do {
            try await useCase.execute(path: path, width: width) { _ in }
            return nil
        } catch {
            return error as? MoviesError
        }
    }

    @Test(arguments: ["abc.jpg", "/", "/../etc/passwd", "/a b.jpg", "/x?.jpg", "/é.jpg", "/.", "/..", "/.hidden.jpg", "/x.", "/..."])
    func badPathsAreRejectedWithoutTheRepository(path: String) async {
        let repository = RecordingPosterRepository()
        let error = await firstError(FetchPosterImageUseCase(posterImagesRepository: repository), path: path, width: 300)
        #expect(error?.code == .invalidArgument)
        #expect(await repository.sizes.isEmpty)
    }

    @Test func widthPicksTheNearestSize() async {
        let repository = RecordingPosterRepository()
        let useCase = FetchPosterImageUseCase(posterImagesRepository: repository)
        #expect(await firstError(useCase, path: "/kqjL17yufvn9OVLyXYpvtyrFfak.jpg", width: 300) == nil)
        #expect(await firstError(useCase, path: "/a-b_c.png", width: nil) == nil)
        #expect(await firstError(useCase, path: "/a.jpg", width: 0)?.code == .invalidArgument)
        #expect(await repository.sizes == [.w342, .original])
    }
}
