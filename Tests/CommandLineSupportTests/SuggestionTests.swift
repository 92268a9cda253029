import CommandLineSupport
import Testing

/// "Did you mean …?": the one rule of `movies` and `moviesd`.
@Suite struct SuggestionTests {
    static let keys = ["Socket", "SocketMode", "Database", "AuthorizedGroup", "LogLevel", "MaxConnections", "MaxConnectionsPerUser"]

    @Test(arguments: [
        ("MaxConection", "MaxConnections"),      // one letter missing: an edit
        ("Databse", "Database"),                 // another letter missing
        ("loglevel", "LogLevel"),                // case alone
        ("SOCKET", "Socket"),
        ("MaxConn", "MaxConnections"),           // a prefix: the first candidate it starts
        ("AuthorisedGroup", "AuthorizedGroup"),  // British spelling
    ])
    func aPlausibleTypoIsNamed(input: String, expected: String) {
        #expect(Suggestion.closest(to: input, among: Self.keys) == expected)
    }

    @Test(arguments: ["Frobnicate", "X", "URL", "Sockets2go", ""])
    func anythingElseIsNot(input: String) {
        #expect(Suggestion.closest(to: input, among: Self.keys) == nil)
    }

    @Test func aNameThatIsACandidateSuggestsNothingElse() {
        // The caller asks only for names it does not know; a known one is its own best match.
        #expect(Suggestion.closest(to: "Socket", among: Self.keys) == "Socket")
        #expect(Suggestion.closest(to: "x", among: []) == nil)
    }

    @Test func distanceIsLevenshteins() {
        #expect(Suggestion.distance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestion.distance(Array(""), Array("abc")) == 3)
        #expect(Suggestion.distance(Array("abc"), Array("abc")) == 0)
    }
}
