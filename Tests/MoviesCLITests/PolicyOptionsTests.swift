import CommandLineSupport
import MoviesDomain
import Testing
@testable import MoviesCLI

/// The policies' names are one declaration (`FetchPolicy.userOption`): every policy a user may
/// name is a flag of `search` (and of `show` unless search-only) selecting that very policy, and a
/// value of movies.conf's `[Search] Policy=` (unless search-only). Enumerated from the policies, so
/// a new one is covered without editing this test.
@Suite struct PolicyOptionsTests {
    @Test(arguments: FetchPolicy.allCases)
    func eachNamedPolicyIsAFlagAndAConfigurationValue(_ policy: FetchPolicy) throws {
        guard let option = policy.userOption else {
            #expect(policy == .default, "only the default policy goes unnamed")
            return
        }
        let flag = "--" + option.name
        let search = try ArgumentParser.parse(["x", flag], spec: SearchCommand.spec)
        #expect(try PolicyOptions.policy(from: search, command: "search", includingSearchOnly: true) == policy)
        let showTakesIt = ShowCommand.spec.options.contains { $0.names.contains(flag) }
        #expect(showTakesIt == !option.searchOnly)
        if !option.searchOnly {
            let show = try ArgumentParser.parse(["1", flag], spec: ShowCommand.spec)
            #expect(try PolicyOptions.policy(from: show, command: "show") == policy)
        }
        let configured = try? ClientConfigurationFile.parse("[Search]\nPolicy=\(option.name)\n", path: "m.conf")
        #expect(configured?.search.policy == (option.searchOnly ? nil : policy))
    }
}
