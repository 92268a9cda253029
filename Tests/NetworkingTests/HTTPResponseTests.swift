import Foundation
import Networking
import Testing

@Suite struct HTTPResponseTests {
    @Test func headerLookupIsCaseInsensitive() {
        let response = HTTPResponse(status: 200, headers: ["ETag": "W/\"abc\"", "content-type": "application/json"])
        #expect(response.header("etag") == "W/\"abc\"")
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("Last-Modified") == nil)
    }

    @Test func headerNamesDifferingInMoreThanASCIICaseDoNotMatch() {
        let response = HTTPResponse(status: 200, headers: ["X-Rate": "1", "Kelvin-\u{212A}": "2"])
        #expect(response.header("x-rate") == "1")
        #expect(response.header("x_rate") == nil)
        #expect(response.header("x-rates") == nil)
        #expect(response.header("x-rat") == nil)
        // Only ASCII letters fold: the Kelvin sign is not a "k".
        #expect(response.header("kelvin-k") == nil)
        #expect(response.header("KELVIN-\u{212A}") == "2")
    }

    @Test(arguments: [("public, max-age=20463", 20463), ("max-age=0", 0), ("no-cache", nil), ("MAX-AGE = 60, private", 60)] as [(String, Int?)])
    func maxAgeIsParsed(cacheControl: String, expected: Int?) {
        #expect(HTTPResponse(status: 200, headers: ["Cache-Control": cacheControl]).maxAgeSeconds == expected)
    }
}
