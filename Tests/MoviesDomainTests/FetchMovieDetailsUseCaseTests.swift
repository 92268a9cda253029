import MoviesDomain
import Testing

@Suite struct FetchMovieDetailsUseCaseTests {
    private func error(id: Int) async -> MoviesError? {
        let useCase = FetchMovieDetailsUseCase(moviesRepository: StubMoviesRepository(pages: []))
        do {
            try await useCase.execute(id: id) { _ in }
            return nil
        } catch {
            return error as? MoviesError
        }
    }

    @Test func nonPositiveIdsAreRejected() async {
        #expect(await error(id: 0)?.code == .invalidArgument)
        #expect(await error(id: -5)?.code == .invalidArgument)
    }

    @Test func positiveIdsReachTheRepository() async {
        // The stub answers every movie with notFound carrying the id it was asked for.
        let failure = await error(id: 603)
        #expect(failure?.code == .notFound)
        #expect(failure?.movieID == 603)
    }
}
