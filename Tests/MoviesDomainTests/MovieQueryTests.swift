import FoundationEssentials
@testable import MoviesDomain
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

    // MARK: - The ASCII fast path agrees with the general path

    /// The canonical form the general path computes for `query` (decoding never takes the fast path).
    private func generalCanonical(_ query: String) throws -> String {
        let json = try JSONEncoder().encode(["query": query])
        return try JSONDecoder().decode(MovieQuery.self, from: json).canonical
    }

    @Test(arguments: ["star wars", "a", "x-men: 2", "1984", "the matrix reloaded", "w@ll-e!", "~/{}[]|\\`^_"])
    func anAlreadyCanonicalASCIIQueryIsItsOwnCanonicalForm(text: String) throws {
        #expect(MovieQuery.isCanonicalASCII(text))
        let query = try #require(MovieQuery(text))
        #expect(query.query == text)
        #expect(query.canonical == text)
        #expect(query.canonical == (try generalCanonical(text)))
    }

    @Test func everyPrintableASCIICharacterGivesTheSameCanonicalFormOnBothPaths() throws {
        for byte in UInt8(0x21)...UInt8(0x7E) {
            let character = String(UnicodeScalar(byte))
            for text in [character, "a\(character)", "\(character) b", "x \(character)\(character) y"] {
                let query = try #require(MovieQuery(text), "\(text)")
                #expect(query.canonical == (try generalCanonical(query.query)), "\(text)")
                #expect(query.canonical == query.canonical.lowercased(), "\(text)")
            }
        }
    }

    @Test(arguments: [
        ("Star  Wars ", "star wars"), (" star wars", "star wars"), ("star wars ", "star wars"),
        ("star\twars", "star wars"), ("star\nwars", "star wars"), ("\tstar wars\r\n", "star wars"),
        ("X-MEN: 2", "x-men: 2"), ("x-men:  2", "x-men: 2"), ("A", "a"),
    ])
    func aNonCanonicalSpellingEqualsTheCanonicalOne(spelling: String, canonical: String) throws {
        #expect(!MovieQuery.isCanonicalASCII(spelling))
        let query = try #require(MovieQuery(spelling))
        let fast = try #require(MovieQuery(canonical))
        #expect(query.canonical == canonical)
        #expect(query == fast)
        #expect(query.hashValue == fast.hashValue)
        #expect(Set([query, fast]).count == 1)
    }

    @Test func nonASCIIQueriesTakeTheGeneralPath() throws {
        #expect(!MovieQuery.isCanonicalASCII("émilie"))
        let lower = try #require(MovieQuery("émilie"))
        let upper = try #require(MovieQuery("Émilie"))
        let decomposed = try #require(MovieQuery("e\u{301}milie"))
        #expect(lower == upper)
        #expect(lower == decomposed)
        #expect(lower.canonical == "émilie")
        #expect(upper.query == "Émilie")
        // A non-breaking space is whitespace to the general path, never to the fast one.
        let nbsp = try #require(MovieQuery("star\u{A0}wars"))
        #expect(nbsp == (try #require(MovieQuery("star wars"))))
    }

    @Test(arguments: ["", " ", "  ", "\t", "\n", " \t\r\n ", "\u{A0}"])
    func emptyOrWhitespaceOnlyIsNil(text: String) {
        #expect(!MovieQuery.isCanonicalASCII(text))
        #expect(MovieQuery(text) == nil)
    }

    @Test func controlCharactersAreNotCanonicalASCII() {
        for text in ["a\u{7F}", "a\u{0}b", "a\u{1B}b", "a\u{0B}b"] {
            #expect(!MovieQuery.isCanonicalASCII(text), "\(text.unicodeScalars.map(\.value))")
        }
    }
}
