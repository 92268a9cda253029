import FoundationEssentials
@testable import MoviesCLI
import MoviesDomain
import MoviesWire
import Testing

/// The reply structs decode the daemon's wire shapes (Varlink interface `io.moviesd.Movies`).
@Suite struct SearchReplyTests {
    @Test func decodesASearchReply() throws {
        let json = #"""
        {"freshness":{"ageSeconds":7200,"fetchedAt":"2026-11-22T01:00:00Z","origin":"cache","stale":false},
         "page":{"movies":[{"id":603,"releaseDate":"1999-03-31","title":"The Matrix","voteAverage":8.2}],"page":1,"totalPages":1,"totalResults":1}}
        """#
        let reply = try WireCoding.decode(SearchReply.self, from: Array(json.utf8))
        #expect(reply.page.movies.first?.title == "The Matrix")
        #expect(reply.freshness.origin == .cache)
        #expect(reply.freshness.ageSeconds == 7_200)
    }

    @Test func decodesAStatusReplyWithAuthRejected() throws {
        let json = #"""
        {"cache":{"byteBudget":1000,"bytes":10,"entries":1,"pinnedEntries":0,"staleEntries":0},
         "remote":{"consecutiveFailures":1,"state":"auth_rejected","since":"2026-11-22T01:00:00Z"},
         "uptimeSeconds":5,"version":"0.1.0"}
        """#
        let reply = try WireCoding.decode(StatusReply.self, from: Array(json.utf8))
        #expect(reply.remote.state == .authRejected)
        #expect(reply.remote.since != nil)
        #expect(reply.lastRefresh == nil)
    }

    @Test func decodesAMovieReplyWithImdbId() throws {
        let json = #"""
        {"freshness":{"ageSeconds":0,"fetchedAt":"2026-11-22T01:00:00Z","origin":"network","stale":false},
         "movie":{"genres":["Action"],"id":603,"imdbId":"tt0133093","title":"The Matrix"}}
        """#
        let reply = try WireCoding.decode(MovieReply.self, from: Array(json.utf8))
        #expect(reply.movie.imdbID == "tt0133093")
    }
}
