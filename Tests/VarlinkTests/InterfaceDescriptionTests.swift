import Testing
@testable import Varlink

@Suite struct InterfaceDescriptionTests {
    @Test func findsDeclaredMethodsAndIgnoresCommentsTypesAndErrors() {
        let text = """
            # method Commented(x: int) -> ()
            interface org.example.scan

            type Thing (method: string)
            method   Spaced (a: int) -> ()
            method Multi(
              query: string
            ) -> (result: Thing)
            \tmethod Tabbed() -> () # method Trailing()
            error Failed (reason: string)
            methodical Fake() -> ()
            """
        #expect(InterfaceDescription(text: text).methodNames == ["Spaced", "Multi", "Tabbed"])
    }

    @Test func readsEachMethodsParametersAndWhichMayBeAbsent() {
        let text = """
            interface org.example.scan
            type Thing (method: string, inner: (a: int, b: ?string))
            method Search(
              # The words to look for.
              query: string,
              page: ?int, filter: ?(kind: (movie, show), year: ?int),
              ids: ?[]int, map: [string]Thing
            ) -> (result: Thing, note: ?string)
            method Nothing() -> (x: int)
            """
        let methods = InterfaceDescription(text: text).methods
        #expect(methods["Search"]?.parameters == ["query": false, "page": true, "filter": true, "ids": true, "map": false])
        #expect(methods["Nothing"]?.parameters == [:])
        #expect(methods.count == 2)
    }

    @Test func aCallFitsWhenEveryNameIsDeclaredAndEveryRequiredOneIsSet() {
        let inputs = InterfaceDescription.Inputs(parameters: ["query": false, "name": false, "page": true])
        #expect(inputs.misfit([("query", .string("x")), ("name", .string("y"))]) == nil)
        #expect(inputs.misfit([("query", .string("x")), ("name", .string("y")), ("page", .null)]) == nil)
        // The first unknown name, in name order, before any missing one.
        #expect(inputs.misfit([("zebra", .int(1)), ("apple", .int(2)), ("query", .string("x"))]) == "apple")
        // The first required one that is missing or null.
        #expect(inputs.misfit([("page", .int(2))]) == "name")
        #expect(inputs.misfit([("name", .string("y")), ("query", .null)]) == "query")
        #expect(InterfaceDescription.Inputs(parameters: [:]).misfit([("text", .string("x"))]) == "text")
    }

    @Test func theLastOfARepeatedNameCountsAsInADictionary() {
        let inputs = InterfaceDescription.Inputs(parameters: ["query": false, "page": true])
        #expect(inputs.misfit([("query", .string("x")), ("query", .null)]) == "query")
        #expect(inputs.misfit([("query", .null), ("query", .string("x"))]) == nil)
    }

    @Test func findsTheServiceInterfaceMethods() {
        #expect(InterfaceDescription(text: VarlinkServiceInterface.description).methodNames == ["GetInfo", "GetInterfaceDescription"])
    }
}
