@testable import MoviesCLI
import Testing

@Suite struct Base64DecoderTests {
    @Test(arguments: [("", ""), ("Zg==", "f"), ("Zm8=", "fo"), ("Zm9v", "foo"), ("Zm9vYg==", "foob"), ("Zm9vYmE=", "fooba"), ("Zm9vYmFy", "foobar"), ("Zm9vYg", "foob")])
    func decodesRFC4648Vectors(encoded: String, decoded: String) {
        #expect(Base64Decoder.decode(encoded) == Array(decoded.utf8))
    }

    @Test func decodesBinaryAndIgnoresLineBreaks() {
        // JPEG magic FF D8 FF E0 and a high byte.
        #expect(Base64Decoder.decode("/9j/\n4A==") == [0xFF, 0xD8, 0xFF, 0xE0])
    }

    @Test(arguments: ["Zm9v!", "Z", "Zg==Zg==", "Zg==="])
    func rejectsInvalidInput(encoded: String) {
        #expect(Base64Decoder.decode(encoded) == nil)
    }
}
