import Testing
@testable import MoviesDaemon

@Suite struct LoadedCredentialTests {
    @Test func descriptionsNeverContainTheSecret() {
        let secret = "eyJhbGciOiJIUzI1NiJ9.secret"
        for credential in [LoadedCredential.bearer(secret), .apiKey(secret)] {
            #expect(credential.secret == secret)
            let renderings = [String(describing: credential), String(reflecting: credential), "\(credential)", dumped(credential), "\([credential])"]
            for rendering in renderings {
                #expect(!rendering.contains(secret), "leaked in \(rendering)")
            }
        }
        #expect(LoadedCredential.bearer(secret).description == "bearer token (redacted)")
        #expect(LoadedCredential.apiKey(secret).description == "API key (redacted)")
        #expect(LoadedCredential.none.description == "no credential")
        #expect(LoadedCredential.none.secret == nil)
    }

    private func dumped(_ value: LoadedCredential) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}
