import MoviesTestSupport
import Testing
@testable import Varlink

/// The json fuzz target's seeds and regressions (Fuzz/json), replayed with its checks.
@Suite struct JSONFuzzInputsTests {
    @Test func theSeedsAndEveryKeptInputParseAndRoundTripOrAreRefused() throws {
        let inputs = try FuzzInputs.all("json")
        #expect(inputs.count >= 10, "the seed corpus is missing")
        for input in inputs {
            guard let value = try? JSONValue.parse(input.bytes) else { continue }
            let written = value.serialized()
            #expect((try? JSONValue.parse(written)) == value, "\(input.name): the serialization does not parse back to the same value")
            #expect((try? JSONValue.parse(written))?.serialized() == written, "\(input.name): serializing is not a fixed point")
        }
    }
}
