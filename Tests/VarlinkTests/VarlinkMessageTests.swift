import Testing
@testable import Varlink

@Suite struct VarlinkMessageTests {
    @Test func aReplyWrittenInPlaceIsTheSameMessageAsTheEncodedOne() {
        let page = Array(("[" + String(repeating: "1,", count: 3_000) + "1]").utf8)
        let freshness = Array(#"{"ageSeconds":3,"stale":false}"#.utf8)
        for continues in [false, true] {
            for value in [page, Array("[1,2]".utf8)] {
                let pieces = VarlinkMessage.encodeReplyPieces(continues: continues, writingMembers: { text in
                    text.append(contentsOf: #""freshness":"#.utf8)
                    text.append(contentsOf: freshness)
                }, thenMember: "page", json: value)
                let expected = VarlinkMessage.encodeReply(["freshness": .raw(freshness), "page": .raw(value)], continues: continues)
                #expect(Array(pieces.joined()) == expected)
                #expect(pieces.contains { $0.withUnsafeBufferPointer { $0.baseAddress } == page.withUnsafeBufferPointer { $0.baseAddress } } == (value == page))
            }
            let alone = VarlinkMessage.encodeReplyPieces(continues: continues, writingMembers: { _ in }, thenMember: "page", json: page)
            #expect(Array(alone.joined()) == VarlinkMessage.encodeReply(["page": .raw(page)], continues: continues))
        }
    }

    @Test func decodesACallWithItsFlags() throws {
        let bytes = Array(#"{"method":"org.example.test.Count","parameters":{"count":2},"more":true,"oneway":false}"#.utf8)
        let decoded = try VarlinkMessage.decodeCall(bytes).get()
        #expect(decoded.call.interface == "org.example.test")
        #expect(decoded.call.methodName == "Count")
        #expect(decoded.call.parameters == ["count": .int(2)])
        #expect(decoded.call.more)
        #expect(!decoded.call.oneway)
        #expect(!decoded.upgrade)
    }

    @Test func treatsMissingOrNullParametersAsEmpty() throws {
        for text in [#"{"method":"a.b.C"}"#, #"{"method":"a.b.C","parameters":null}"#] {
            #expect(try VarlinkMessage.decodeCall(Array(text.utf8)).get().call.parameters.isEmpty)
        }
    }

    @Test(arguments: [
        (#"{"more":1,"method":"x","parameters":[]}"#, "method"),
        (#"{"oneway":"y","parameters":3,"method":"a.b.C"}"#, "parameters"),
        (#"{"upgrade":0,"oneway":"y","method":"a.b.C"}"#, "oneway"),
        (#"{"parameters":{}}"#, "method"),
        (#"[1,2]"#, "message"),
        (#"{"method":"a.b.C"} x"#, "message"),
    ])
    func namesTheFirstBadMemberWhateverTheirOrder(text: String, parameter: String) {
        guard case .failure(let error) = VarlinkMessage.decodeCall(Array(text.utf8)) else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(error == .invalidParameter(parameter))
    }

    @Test func aRepeatedMemberCountsOnceTheLastTime() throws {
        let text = #"{"method":"a.b.C","more":true,"more":false,"parameters":{"q":1},"parameters":{"q":2}}"#
        let call = try VarlinkMessage.decodeCall(Array(text.utf8)).get().call
        #expect(!call.more)
        #expect(call.parameters == ["q": .int(2)])
        #expect(call.interface == "a.b" && call.methodName == "C")
    }

    @Test func keepsTheParametersAsWrittenAndReadsTheLastOfARepeatedName() throws {
        let text = #"{"method":"a.b.C","parameters":{"q":"x","page":{"n":[1]},"q":"y","none":null}}"#
        let call = try VarlinkMessage.decodeCall(Array(text.utf8)).get().call
        #expect(call.parameterList.map(\.name) == ["q", "page", "q", "none"])
        #expect(call.parameter("q") == .string("y"))
        #expect(call.parameter("page") == .object(["n": .array([.int(1)])]), "a nested object is a value as before")
        #expect(call.parameter("none") == .null)
        #expect(call.parameter("absent") == nil)
        #expect(call.parameters == ["q": .string("y"), "page": .object(["n": .array([.int(1)])]), "none": .null])
        // Another top-level member named like a parameter is not one.
        let other = try VarlinkMessage.decodeCall(Array(#"{"q":{"r":1},"method":"a.b.C"}"#.utf8)).get().call
        #expect(other.parameterList.isEmpty)
        // A later `parameters` replaces an earlier one, whatever their kinds.
        let replaced = try VarlinkMessage.decodeCall(Array(#"{"method":"a.b.C","parameters":{"q":1},"parameters":null}"#.utf8)).get().call
        #expect(replaced.parameterList.isEmpty)
    }

    @Test func encodesRepliesWithOnlyTheStandardKeys() {
        let final = String(decoding: VarlinkMessage.encodeReply(["a": .int(1)], continues: false), as: UTF8.self)
        #expect(final == #"{"parameters":{"a":1}}"#)
        let intermediate = String(decoding: VarlinkMessage.encodeReply([:], continues: true), as: UTF8.self)
        #expect(intermediate == #"{"continues":true,"parameters":{}}"#)
        let error = String(decoding: VarlinkMessage.encodeError(.permissionDenied), as: UTF8.self)
        #expect(error == #"{"error":"org.varlink.service.PermissionDenied","parameters":{}}"#)
    }

    @Test func decodesRepliesAndRejectsNonReplies() {
        let reply = VarlinkMessage.decodeReply(Array(#"{"parameters":{"x":"y"},"continues":true}"#.utf8))
        #expect(reply?.parameters == .object(["x": .string("y")]))
        #expect(reply?.continues == true)
        #expect(reply?.error == nil)
        #expect(VarlinkMessage.decodeReply(Array(#"{"error":"a.b.C"}"#.utf8))?.error == "a.b.C")
        #expect(VarlinkMessage.decodeReply(Array("[1]".utf8)) == nil)
        #expect(VarlinkMessage.decodeReply(Array(#"{"parameters":3}"#.utf8)) == nil)
    }

    @Test(arguments: ["org.example.test.Echo", "io.moviesd.Movies.Search", "a-b.c.D1"])
    func acceptsValidMethodNames(_ name: String) {
        #expect(VarlinkMessage.isValidMethodName(name))
    }

    @Test(arguments: ["Echo", "org.Echo", ".Echo", "org.example.test.echo", "org.example.test.", "org.ex ample.test.Echo", "org.example.test.Ec-ho",
                     "org.exämple.test.Echo", "org.example.test.Échо", "org.example.test.Ech\u{301}o", "org.example.test.E\u{0}", "org..Echo2_"])
    func rejectsInvalidMethodNames(_ name: String) {
        #expect(!VarlinkMessage.isValidMethodName(name))
    }

    @Test func aReplyIsEncodedWithItsRawPartsSplicedVerbatim() throws {
        let page = Array(#"{"movies":[{"title":"Alien"}],"page":1}"#.utf8)
        let reply = VarlinkMessage.encodeReply(["page": .raw(page), "note": .string("é\n")], continues: true)
        #expect(String(decoding: reply, as: UTF8.self) == #"{"continues":true,"parameters":{"note":"é\n","page":{"movies":[{"title":"Alien"}],"page":1}}}"#)
        #expect(reply.capacity >= reply.count + 1)
    }
}
