import Foundation
import Testing
import TMDBStub

struct JSONValueTests {
    @Test func serializesInOrderWithEscapesAndParsesBack() throws {
        let value = JSONValue.object([
            ("b", .string("quote \" backslash \\ newline \n tab \t bell \u{7} Ночь")),
            ("a", .array([.int(-3), .double(8.4), .double(2), .bool(true), .null])),
        ])
        let text = String(decoding: value.serialized(), as: UTF8.self)
        #expect(text.hasPrefix(#"{"b":"#))
        #expect(text.hasSuffix(#""a":[-3,8.4,2.0,true,null]}"#))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(value.serialized())) as? [String: Any])
        #expect(parsed["b"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{7} Ночь")
    }
}
