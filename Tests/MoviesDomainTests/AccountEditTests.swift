import MoviesDomain
import Testing

/// An account edit refuses what TMDB would, saying the value as the user typed it.
@Suite struct AccountEditTests {
    @Test(arguments: [(11.0, "not 11"), (7.25, "not 7.25"), (0.0, "not 0"), (-2.0, "not -2")])
    func aRatingTMDBRefusesIsRefusedAsTyped(value: Double, says: String) {
        do {
            _ = try AccountEdit(movieID: 603, change: .rating(value))
            Issue.record("\(value) was accepted")
        } catch {
            #expect(error.message == "a rating is 0.5 to 10 in steps of 0.5, \(says)")
        }
    }

    @Test func ratingsInHalfStepsAreTaken() throws {
        for value in [0.5, 7.0, 8.5, 10.0] { _ = try AccountEdit(movieID: 603, change: .rating(value)) }
    }
}
