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

    @Test func findsTheServiceInterfaceMethods() {
        #expect(InterfaceDescription(text: VarlinkServiceInterface.description).methodNames == ["GetInfo", "GetInterfaceDescription"])
    }
}
