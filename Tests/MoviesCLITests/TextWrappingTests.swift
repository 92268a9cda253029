@testable import MoviesCLI
import Testing

@Suite struct TextWrappingTests {
    @Test func wrapsAtSpaces() {
        #expect(TextWrapping.wrap("a hacker learns the truth", width: 10) == ["a hacker", "learns the", "truth"])
    }

    @Test func breaksWordsWiderThanTheLine() {
        let lines = TextWrapping.wrap("千と千尋の神隠し", width: 6)
        #expect(lines == ["千と千", "尋の神", "隠し"])
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 6 })
    }
}

/// Issue 46: `movies status` broke paths mid-word at 40 columns.
@Suite struct TextWrappingPathTests {
    @Test func aPathWiderThanTheLineBreaksAfterASlash() {
        #expect(TextWrapping.wrap("/run/user/1000/moviesd/io.moviesd.Movies", width: 25) == ["/run/user/1000/moviesd/", "io.moviesd.Movies"])
        #expect(TextWrapping.wrap("https://www.themoviedb.org/movie/603", width: 30) == ["https://www.themoviedb.org/", "movie/603"])
    }

    @Test func aPartWiderThanTheLineStillBreaksBetweenCharacters() {
        #expect(TextWrapping.wrap("/averyveryverylongname", width: 10) == ["/averyvery", "verylongna", "me"])
    }
}
