import MoviesDomain
import Testing
@testable import MoviesDaemon
import Varlink

/// Typed reading of call parameters.
@Suite struct ParameterReaderTests {
    private func reader(_ parameters: [String: JSONValue]) throws -> ParameterReader {
        ParameterReader(VarlinkCall(method: "io.moviesd.Movies.Test", parameters: parameters))
    }

    @Test func readsStringsAndTreatsNullAsAbsent() throws {
        let present = try reader(["text": .string("hello")])
        #expect(try present.requiredString("text") == "hello")
        #expect(try present.optionalString("text") == "hello")
        let null = try reader(["text": .null])
        #expect(try null.optionalString("text") == nil)
        #expect(throws: VarlinkError.invalidParameter("text")) { try null.requiredString("text") }
        #expect(throws: VarlinkError.invalidParameter("text")) { try reader([:]).requiredString("text") }
        #expect(throws: VarlinkError.invalidParameter("text")) { try reader(["text": .int(3)]).optionalString("text") }
        #expect(throws: VarlinkError.invalidParameter("text")) { try reader(["text": .array([])]).optionalString("text") }
    }

    @Test func readsIntegersAcrossTheInt64Range() throws {
        #expect(try reader(["number": .int(42)]).requiredInt("number") == 42)
        #expect(try reader(["number": .int(-7)]).optionalInt("number") == -7)
        #expect(try reader(["number": .int(Int64.max)]).optionalInt("number") == Int.max)
        #expect(try reader(["number": .int(Int64.min)]).optionalInt("number") == Int.min)
        #expect(try reader(["number": .double(3.0)]).optionalInt("number") == 3)
        #expect(try reader(["number": .null]).optionalInt("number") == nil)
        #expect(try reader([:]).optionalInt("number") == nil)
    }

    @Test func rejectsNonIntegralAndOutOfRangeNumbers() {
        for value: JSONValue in [.double(2.5), .double(1e300), .double(-1e19), .string("3"), .bool(true)] {
            #expect(throws: VarlinkError.invalidParameter("number"), "\(value)") { try reader(["number": value]).optionalInt("number") }
        }
        #expect(throws: VarlinkError.invalidParameter("number")) { try reader([:]).requiredInt("number") }
        #expect(throws: VarlinkError.invalidParameter("number")) { try reader(["number": .null]).requiredInt("number") }
    }

    @Test func readsBooleansOnly() throws {
        #expect(try reader(["flag": .bool(true)]).optionalBool("flag") == true)
        #expect(try reader(["flag": .bool(false)]).optionalBool("flag") == false)
        #expect(try reader(["flag": .null]).optionalBool("flag") == nil)
        for value: JSONValue in [.int(1), .string("true"), .object([:])] {
            #expect(throws: VarlinkError.invalidParameter("flag"), "\(value)") { try reader(["flag": value]).optionalBool("flag") }
        }
    }

    @Test func readsEveryFetchPolicyAndDefaultsWhenAbsent() throws {
        for policy in FetchPolicy.allCases {
            #expect(try reader(["policy": .string(policy.rawValue)]).policy() == policy)
        }
        #expect(try reader([:]).policy() == .cacheThenNetwork)
        #expect(try reader(["policy": .null]).policy() == .cacheThenNetwork)
        #expect(throws: VarlinkError.invalidParameter("policy")) { try reader(["policy": .string("cacheFirst")]).policy() }
        #expect(throws: VarlinkError.invalidParameter("policy")) { try reader(["policy": .int(1)]).policy() }
        #expect(throws: VarlinkError.invalidParameter("text")) { try reader(["text": .string("nope")]).policy("text") }
    }
}
