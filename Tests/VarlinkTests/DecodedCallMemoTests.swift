import Foundation
import Testing
@testable import Varlink

/// The event loop's memo of decoded calls: a hit is exactly what decoding the bytes gives.
@Suite struct DecodedCallMemoTests {
    /// Everything a decoded call carries, comparable.
    struct Summary: Equatable {
        var method: String
        var interface: String
        var methodName: String
        var parameters: [String: JSONValue]
        var more: Bool
        var oneway: Bool
        var upgrade: Bool

        init(_ decoded: VarlinkMessage.DecodedCall) {
            method = decoded.call.method
            interface = decoded.call.interface
            methodName = decoded.call.methodName
            parameters = decoded.call.parameters
            more = decoded.call.more
            oneway = decoded.call.oneway
            upgrade = decoded.upgrade
        }
    }

    static func message(_ text: String) -> ArraySlice<UInt8> { ArraySlice(Array(text.utf8)) }

    static func summary(_ result: Result<VarlinkMessage.DecodedCall, VarlinkError>) throws -> Summary {
        Summary(try result.get())
    }

    static let search = #"{"method":"io.moviesd.Movies.Search","parameters":{"query":"matrix","policy":"cache_first"},"more":true}"#

    @Test func aRepeatedMessageDecodesToTheSameCallAsDecodeCall() throws {
        var memo = DecodedCallMemo()
        let expected = try Self.summary(VarlinkMessage.decodeCall(Self.message(Self.search)))
        #expect(try Self.summary(memo.decode(Self.message(Self.search))) == expected)
        #expect(memo.count == 1)
        #expect(try Self.summary(memo.decode(Self.message(Self.search))) == expected)
        #expect(memo.count == 1)
        #expect(expected.parameters["query"] == .string("matrix"))
        #expect(expected.more)
    }

    @Test func theSameBytesAtAnotherPlaceInAnotherBufferAreTheSameMessage() throws {
        var memo = DecodedCallMemo()
        let bytes = Array(Self.search.utf8)
        let first = [UInt8](repeating: 0x20, count: 7) + bytes + [0, 0x7B]
        let second = [UInt8](repeating: 0x41, count: 300) + bytes
        let a = try Self.summary(memo.decode(first[7..<(7 + bytes.count)]))
        let b = try Self.summary(memo.decode(second[300...]))
        #expect(a == b)
        #expect(memo.count == 1)
    }

    @Test func differentBytesAreNeverConfused() throws {
        var memo = DecodedCallMemo()
        let texts = [
            Self.search,
            Self.search.replacingOccurrences(of: "matrix", with: "matrjx"),  // same length, one byte apart
            Self.search.replacingOccurrences(of: "matrix", with: "alien"),
            Self.search.replacingOccurrences(of: #""more":true"#, with: #""oneway":true"#),
            #"{"method":"io.moviesd.Movies.Status"}"#,
        ]
        for _ in 0..<2 {
            for text in texts {
                let expected = try Self.summary(VarlinkMessage.decodeCall(Self.message(text)))
                #expect(try Self.summary(memo.decode(Self.message(text))) == expected, "\(text)")
            }
        }
        #expect(memo.count == texts.count)
        #expect(try Self.summary(memo.decode(Self.message(texts[1]))).parameters["query"] == .string("matrjx"))
        #expect(try Self.summary(memo.decode(Self.message(texts[3]))).oneway)
    }

    @Test func anInvalidMessageIsAnErrorEveryTimeAndNotRemembered() {
        var memo = DecodedCallMemo()
        let cases: [(String, VarlinkError)] = [
            ("{not json", .invalidParameter("message")),
            (#"["an array"]"#, .invalidParameter("message")),
            (#"{"method":"lowercase"}"#, .invalidParameter("method")),
        ]
        for _ in 0..<3 {
            for (text, error) in cases {
                #expect(throws: error) { try memo.decode(Self.message(text)).get() }
            }
        }
        #expect(memo.count == 0)
    }

    @Test func aMessageOverTheSizeLimitStillDecodesButIsNotRemembered() throws {
        var memo = DecodedCallMemo(capacity: 4, maxMessageBytes: 32)
        let long = Self.search
        #expect(long.utf8.count > 32)
        let expected = try Self.summary(VarlinkMessage.decodeCall(Self.message(long)))
        #expect(try Self.summary(memo.decode(Self.message(long))) == expected)
        #expect(try Self.summary(memo.decode(Self.message(long))) == expected)
        #expect(memo.count == 0)
        let short = #"{"method":"a.b.C"}"#
        #expect(try Self.summary(memo.decode(Self.message(short))).methodName == "C")
        #expect(memo.count == 1)
    }

    @Test func neverHoldsMoreThanItsCapacity() throws {
        var memo = DecodedCallMemo(capacity: 3)
        var largest = 0
        for round in 0..<2 {
            for index in 0..<10 {
                let text = #"{"method":"org.example.test.Echo","parameters":{"text":"\#(index)"}}"#
                let decoded = try Self.summary(memo.decode(Self.message(text)))
                #expect(decoded.parameters["text"] == .string("\(index)"), "round \(round)")
                largest = max(largest, memo.count)
            }
        }
        #expect(largest == 3)
        #expect(memo.count == 3)
    }
}
