import Networking
import Testing

@Suite struct RedactionTests {
    @Test(arguments: [
        ("https://h/3/movie/1?api_key=abc123&language=de", "https://h/3/movie/1?api_key=<redacted>&language=de"),
        ("GET https://h/3/configuration?API_KEY=abc", "GET https://h/3/configuration?API_KEY=<redacted>"),
        ("failed: \"https://h/x?a=1&api_key=zz#frag\"", "failed: \"https://h/x?a=1&api_key=<redacted>#frag\""),
        ("Authorization: Bearer eyJhbGciOi.x.y", "Authorization: Bearer <redacted>"),
        ("nothing secret here", "nothing secret here"),
    ])
    func redactsCredentials(input: String, expected: String) {
        #expect(Redaction.redactingCredentials(in: input) == expected)
    }

    @Test(arguments: [
        ("token tok", "token <r>"),
        ("tok=1&api_key=tok&x", "<r>=1&api_key=<r>&x"),
        ("\"tok\" tokens atok tok_ tok.", "\"<r>\" tokens atok tok_ <r>."),
        ("tok", "<r>"),
        ("toktok tok", "toktok <r>"),
    ])
    func replacesWholeOccurrencesOnly(input: String, expected: String) {
        #expect(Redaction.replacingWholeOccurrences(of: "tok", in: input, with: "<r>") == expected)
    }
}
