// libFuzzer target: the hand-written JSON parser (Sources/Varlink/JSON), which reads every byte a
// Varlink client sends. Built and run by scripts/fuzz; see Fuzz/README.md.
//
// Checks beyond "does not crash": a document that parses serializes to text that parses to the
// same value, and that text is a fixed point (serializing it again gives the same bytes).
@testable import Varlink

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let value = try? JSONValue.parse(bytes) else { return 0 }
    let written = value.serialized()
    guard let reread = try? JSONValue.parse(written) else {
        fatalError("the serialization of a parsed document does not parse: \(String(decoding: written, as: UTF8.self))")
    }
    guard reread.serialized() == written else {
        fatalError("serializing is not a fixed point: \(String(decoding: written, as: UTF8.self))")
    }
    return 0
}
