import Testing
import WireJSON

/// The wire's codec: `Codable` values to JSON trees and back, without Foundation.
@Suite struct JSONValueCoderTests {
    struct Inner: Codable, Equatable {
        var flag: Bool
        var ratio: Double
    }

    struct Sample: Codable, Equatable {
        var id: Int
        var name: String
        var note: String?
        var small: UInt8
        var big: Int64
        var items: [Inner]
        var nested: [[Int]]
        var table: [String: Int]
        var optionalList: [String?]
        var kind: Kind
    }

    enum Kind: String, Codable {
        case movie
        case show
    }

    static let sample = Sample(
        id: 603, name: "Amélie \"quoted\" \\ 😀 \n", note: nil, small: 255, big: Int64.min,
        items: [Inner(flag: true, ratio: 7.25), Inner(flag: false, ratio: 0)], nested: [[], [1, 2]],
        table: ["b": 2, "a": 1], optionalList: ["x", nil], kind: .show)

    @Test func aValueSurvivesTheRoundTripThroughItsText() throws {
        let tree = try JSONValueEncoder().encode(Self.sample)
        let parsed = try JSONValue.parse(tree.serialized())
        #expect(try JSONValueDecoder().decode(Sample.self, from: parsed) == Self.sample)
    }

    @Test func absentOptionalsAreOmittedAndKeysSorted() throws {
        let text = String(decoding: try JSONValueEncoder().encode(Inner(flag: true, ratio: 1.5)).serialized(), as: UTF8.self)
        #expect(text == #"{"flag":true,"ratio":1.5}"#)
        let tree = try JSONValueEncoder().encode(Self.sample)
        #expect(tree["note"] == nil)
        #expect(tree["optionalList"] == .array([.string("x"), .null]))
        #expect(tree["kind"] == .string("show"))
    }

    @Test func aMissingOrNullOptionalReadsAsAbsentAndNumbersConvertExactly() throws {
        struct Loose: Codable, Equatable {
            var count: Int
            var share: Double
            var note: String?
        }
        let read = try JSONValueDecoder().decode(Loose.self, from: .object(["count": .double(3), "share": .int(2), "note": .null]))
        #expect(read == Loose(count: 3, share: 2, note: nil))
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Loose.self, from: .object(["count": .double(3.5), "share": .int(2)])) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(UInt8.self, from: .int(256)) }
    }

    @Test func aMismatchNamesWhereItIs() throws {
        let bad = JSONValue.object(["flag": .string("yes"), "ratio": .int(1)])
        do {
            _ = try JSONValueDecoder().decode([Inner].self, from: .array([.object(["flag": .bool(true), "ratio": .int(1)]), bad]))
            Issue.record("decoded a string as a boolean")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["1", "flag"])
        }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Inner.self, from: .object(["flag": .bool(true)])) }
    }

    @Test func nonFiniteNumbersAndOversizedIntegersAreRefused() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Inner(flag: true, ratio: .nan)) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([Double.infinity]) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(UInt64.max) }
    }

    @Test func registeredScalarsAreWrittenAndReadByTheirOwnFunctions() throws {
        struct Stamp: Codable, Equatable {
            var seconds: Int
        }
        struct Event: Codable, Equatable {
            var at: Stamp
            var until: Stamp?
        }
        var scalars = WireScalars()
        scalars.register(Stamp.self, write: { .string("T\($0.seconds)") }, read: { json in
            json.stringValue.flatMap { Int($0.dropFirst()) }.map(Stamp.init(seconds:))
        })
        let event = Event(at: Stamp(seconds: 5), until: Stamp(seconds: 9))
        let tree = try JSONValueEncoder(scalars: scalars).encode(event)
        #expect(tree == .object(["at": .string("T5"), "until": .string("T9")]))
        #expect(try JSONValueDecoder(scalars: scalars).decode(Event.self, from: tree) == event)
        #expect(throws: DecodingError.self) { try JSONValueDecoder(scalars: scalars).decode(Event.self, from: .object(["at": .string("x")])) }
    }
}
