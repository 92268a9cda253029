import Testing
@testable import Varlink

@Suite struct JSONValueTests {
    private func text(_ value: JSONValue) -> String { String(decoding: value.serialized(), as: UTF8.self) }
    private func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test func serializesCompactlyWithSortedKeys() {
        let value = JSONValue.object(["b": .array([.int(1), .double(2.5), .null]), "a": .bool(true), "c": .object([:])])
        #expect(text(value) == #"{"a":true,"b":[1,2.5,null],"c":{}}"#)
    }

    @Test func roundTripsNestedValues() throws {
        let value = JSONValue.object([
            "title": .string("Amélie \"Le fabuleux\" \\ destin\n"),
            "ids": .array([.int(-3), .int(Int64.max), .int(Int64.min)]),
            "score": .double(7.25),
            "nested": .object(["empty": .array([]), "none": .null, "flag": .bool(false)]),
        ])
        #expect(try JSONValue.parse(value.serialized()) == value)
    }

    @Test func decodesUnicodeEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""\u00e9\ud83d\ude00\u0041\/""#) == .string("é😀A/"))
    }

    @Test func escapesControlCharactersAndKeepsUnicodeRaw() throws {
        let value = JSONValue.string("a\u{01}\t\u{7F}é😀")
        #expect(text(value) == "\"a\\u0001\\t\u{7F}é😀\"")  // DEL needs no escape (RFC 8259), as JSONEncoder has it
        #expect(try JSONValue.parse(value.serialized()) == value)
    }

    @Test(arguments: [#""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#])
    func rejectsLoneSurrogates(_ input: String) {
        #expect(throws: JSONParseError.self) { try parse(input) }
    }

    @Test(arguments: [[0x22, 0xC3, 0x28, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xFF, 0x22]] as [[UInt8]])
    func rejectsInvalidUTF8(_ bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes) }
    }

    @Test func rejectsNestingDeeperThanTheLimit() throws {
        let limit = JSONValue.maximumNestingDepth
        let accepted = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try parse(accepted).arrayValue != nil)
        let rejected = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(throws: JSONParseError.self) { try parse(rejected) }
    }

    @Test func distinguishesIntegersFromDoubles() throws {
        #expect(try parse("42") == .int(42))
        #expect(try parse("-0") == .int(0))
        #expect(try parse("4.0") == .double(4.0))
        #expect(try parse("1e3") == .double(1000))
        #expect(try parse("9223372036854775807") == .int(Int64.max))
        #expect(try parse("-9223372036854775808") == .int(Int64.min))
        #expect(try parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try parse("4.0").intValue == 4)
        #expect(try parse("4.5").intValue == nil)
        #expect(try parse("7").doubleValue == 7)
    }

    @Test(arguments: ["", " ", "01", "1.", ".5", "-", "1e", "+1", "tru", "nul", "[1,]", "{\"a\":1,}", "{a:1}", "[1 2]",
                      "\"abc", "\"\u{01}\"", "\"\\x\"", "1 2", "NaN", "Infinity", "1e999", "{\"a\"}", "[", "'a'"])
    func rejectsMalformedInput(_ input: String) {
        #expect(throws: JSONParseError.self) { try parse(input) }
    }

    @Test func acceptsSurroundingWhitespace() throws {
        #expect(try parse(" \n\t{ \"a\" : [ 1 , 2 ] }\r\n") == .object(["a": .array([.int(1), .int(2)])]))
    }

    @Test func splicesRawBytesVerbatim() {
        let value = JSONValue.object(["page": .raw(Array(#"{"id":1}"#.utf8)), "n": .int(2)])
        #expect(text(value) == #"{"n":2,"page":{"id":1}}"#)
    }

    @Test func writesNonFiniteDoublesAsNull() {
        #expect(text(.double(.infinity)) == "null")
        #expect(text(.double(.nan)) == "null")
    }

    @Test func accessorsReturnOnlyMatchingKinds() {
        let value = JSONValue.object(["s": .string("x"), "b": .bool(true)])
        #expect(value["s"]?.stringValue == "x")
        #expect(value["b"]?.boolValue == true)
        #expect(value["s"]?.intValue == nil)
        #expect(value["missing"] == nil)
        #expect(JSONValue.null.isNull)
        #expect(JSONValue.string("a")["s"] == nil)
        #expect(value.objectValue?.count == 2)
    }
}
