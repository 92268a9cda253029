import FoundationEssentials
import MoviesDomain
import Testing

@Suite struct MovieQueryTests {
    @Test func trimsAndCollapsesWhitespaceKeepingCase() throws {
        let query = try #require(MovieQuery("  The   MATRIX \n"))
        #expect(query.query == "The MATRIX")
        #expect(query.canonical == "the matrix")
    }

    @Test func emptyAfterTrimmingIsRejected() {
        #expect(MovieQuery("   \t ") == nil)
        #expect(MovieQuery("") == nil)
    }

    @Test func equalityAndHashUseTheCanonicalForm() throws {
        let a = try #require(MovieQuery("  The   MATRIX "))
        let b = try #require(MovieQuery("the matrix"))
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(try #require(MovieQuery("matrix")) != b)
    }

    @Test func canonicalFormIsNFC() throws {
        let decomposed = try #require(MovieQuery("Cafe\u{301}"))
        let composed = try #require(MovieQuery("Café"))
        #expect(decomposed.canonical == composed.canonical)
        #expect(decomposed.canonical.unicodeScalars.count == 4)
    }

    @Test func canonicalFormFoldsSharpS() throws {
        #expect(try #require(MovieQuery("Straße")).canonical == (try #require(MovieQuery("STRASSE"))).canonical)
    }

    @Test func encodesOnlyTheQueryAndDecodesWithItsCanonicalForm() throws {
        let query = try #require(MovieQuery("Straße  Film"))
        let encoded = try JSONEncoder().encode(query)
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"query":"Straße Film"}"#)
        let decoded = try JSONDecoder().decode(MovieQuery.self, from: encoded)
        #expect(decoded.query == "Straße Film")
        #expect(decoded.canonical == "strasse film")
        #expect(decoded == query)
        #expect(try JSONDecoder().decode(MovieQuery.self, from: Data(#"{"query":"STRASSE FILM"}"#.utf8)) == query)
    }
}
